import CombineExCore
import CombineExTesting
import Testing

@Suite("Deferred")
struct DeferredTests {
  @Test("does not call the factory before a subscription")
  func doesNotRunBeforeSubscription() {
    var calls = 0
    let deferred = Deferred { () -> Just<Int> in
      calls += 1
      return Just(calls)
    }
    _ = deferred
    #expect(calls == 0)
  }

  @Test("calls the factory once per subscription, each subscriber getting its own publisher")
  func runsOncePerSubscription() {
    var calls = 0
    let deferred = Deferred { () -> Just<Int> in
      calls += 1
      return Just(calls)
    }
    let first = deferred.record()
    #expect(calls == 1)
    let second = deferred.record()
    #expect(calls == 2)
    #expect(first.values == [1])
    #expect(second.values == [2])
    #expect(first.receivedCompletion.isFinished)
    #expect(second.receivedCompletion.isFinished)
  }

  @Test("passes the created publisher's failure on")
  func forwardsFailure() {
    let recorder = Deferred { Fail<Int, TestError>(error: TestError(4)) }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(4)))
  }

  @Test("an empty created publisher finishes without values")
  func emptyPublisher() {
    let recorder = Deferred { Empty<Int, Never>() }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = Deferred { [1, 2, 3].publisher }.record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    recorder.request(.max(5))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("without demand nothing is delivered")
  func noDemand() {
    let recorder = Deferred { [1, 2].publisher }.record(initialDemand: .none)
    #expect(recorder.isSubscribed)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel reaches the created publisher and stops delivery")
  func cancelReachesCreatedPublisher() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder = Deferred { subject.handleCancelForTest { cancelled = true } }.record()
    subject.send(1)
    recorder.cancel()
    subject.send(2)
    #expect(cancelled)
    #expect(recorder.values == [1])
  }

  @Test("cancel releases the pipeline")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = Deferred { subject }.sink { owner.values.append($0) }
    }
    subject.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }
}
