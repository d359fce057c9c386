import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("AsyncSequencePublisher (asyncSequence.publisher)")
struct AsyncSequencePublisherTests {
  @Test("publishes every element, then finishes")
  func publishesThenFinishes() async {
    let recorder = CountingSequence(count: 3).publisher.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("a sequence that cannot throw gives a never-failing publisher")
  func neverFailing() async {
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.finish()
    }
    let recorder: TestSubscriber<Int, Never> = stream.publisher.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [1])
  }

  @Test("an empty sequence finishes without values")
  func emptyFinishes() async {
    let recorder = CountingSequence(count: 0).publisher.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values.isEmpty)
  }

  @Test("the sequence's error fails the publisher after the elements before it")
  func errorFails() async {
    let recorder: TestSubscriber<Int, any Error> =
      FailingSequence(count: 2, error: TestError(3)).publisher.record()
    let completion = await recorder.completion
    guard case .failure(let error)? = completion else {
      Issue.record("expected a failure, got \(String(describing: completion))")
      return
    }
    #expect(error as? TestError == TestError(3))
    #expect(recorder.values == [1, 2])
  }

  @Test("cold: nothing runs before a subscription, and each subscription iterates anew")
  func coldPerSubscription() async {
    let sequence = CountingSequence(count: 2)
    let publisher = sequence.publisher
    #expect(sequence.iterators.value == 0)
    let first = publisher.record()
    let second = publisher.record()
    #expect(await first.completion == .finished)
    #expect(await second.completion == .finished)
    #expect(first.values == [1, 2])
    #expect(second.values == [1, 2])
    #expect(sequence.iterators.value == 2)
  }

  @Test("an element is pulled only when there is demand for it, never ahead")
  func pullsOnlyOnDemand() async {
    let sequence = CountingSequence(count: 5)
    let pullsAtDelivery = LockedBox<[Int]>([])
    let recorder = sequence.publisher
      .handleEvents(receiveOutput: { _ in
        pullsAtDelivery.withLock { $0.append(sequence.pulls.value) }
      })
      .record(initialDemand: .none)
    recorder.request(.max(1))
    #expect(await recorder.values(count: 1) == [1])
    recorder.request(.max(2))
    #expect(await recorder.values(count: 3) == [1, 2, 3])
    #expect(pullsAtDelivery.withLock { $0 } == [1, 2, 3])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("a request for .none pulls nothing")
  func requestNonePullsNothing() async {
    let sequence = CountingSequence(count: 3)
    let pullsAtDelivery = LockedBox<[Int]>([])
    let recorder = sequence.publisher
      .handleEvents(receiveOutput: { _ in
        pullsAtDelivery.withLock { $0.append(sequence.pulls.value) }
      })
      .record(initialDemand: .none)
    recorder.request(.none)
    recorder.request(.max(1))
    #expect(await recorder.values(count: 1) == [1])
    #expect(pullsAtDelivery.withLock { $0 } == [1])
  }

  @Test("the completion after the last element comes with the next demand")
  func completionNeedsDemand() async {
    let sequence = CountingSequence(count: 1)
    let recorder = sequence.publisher.record(initialDemand: .max(1))
    #expect(await recorder.values(count: 1) == [1])
    recorder.request(.max(1))
    #expect(await recorder.completion == .finished)
    #expect(sequence.pulls.value == 2)
  }

  @Test("demand returned from receive(_:) pulls more elements")
  func demandFromReceive() async {
    let recorder = CountingSequence(count: 3).publisher
      .record(initialDemand: .max(1), demandAfterEachValue: .max(1))
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("cancelling cancels the task awaiting the next element, and nothing follows")
  func cancelCancelsTask() async {
    let sequence = CancellationAwaitingSequence()
    let recorder = sequence.publisher.record()
    await sequence.pulled.wait()
    recorder.cancel()
    await sequence.cancelled.wait()
    #expect(recorder.receivedCompletion == nil)
    #expect(recorder.values.isEmpty)
  }

  @Test("a cancel during receive(subscription:) never starts the iteration")
  func cancelDuringSubscription() async {
    let sequence = CountingSequence(count: 3)
    let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
    subscriber.cancel()
    sequence.publisher.subscribe(subscriber)
    #expect(sequence.iterators.value == 0)
    #expect(subscriber.events == [.subscription])
  }

  @Test("cancel releases the subscriber at once")
  func cancelReleases() async {
    let sequence = CancellationAwaitingSequence()
    weak var weakOwner: TestOwner?
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = sequence.publisher.sink { owner.values.append($0) }
    }
    await sequence.pulled.wait()
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a finished subscription releases the subscriber")
  func finishReleases() async {
    weak var weakOwner: TestOwner?
    let finished = Signal()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = CountingSequence(count: 2).publisher.sink(
        receiveCompletion: { _ in finished.fire() }, receiveValue: { owner.values.append($0) })
    }
    await finished.wait()
    // The sink lets go of its closures just after `receiveCompletion` returns, on the
    // sequence's task, which may still be running here.
    await waitForRelease { weakOwner == nil }
    #expect(weakOwner == nil)
    _ = cancellable
  }

  @Test("stress: requests from many threads deliver every element exactly once")
  func stressConcurrentRequests() async {
    let sequence = CountingSequence(count: 400)
    let recorder = sequence.publisher.record(initialDemand: .none)
    await concurrentPerform(8) { _ in
      for _ in 0..<50 { recorder.request(.max(1)) }
    }
    #expect(await recorder.values(count: 400) == Array(1...400))
    recorder.request(.max(1))
    #expect(await recorder.completion == .finished)
  }

  @Test("stress: a cancel racing requests leaves an in-order prefix and no completion")
  func stressCancelWhileDelivering() async {
    for _ in 0..<50 {
      let recorder = CountingSequence(count: 10_000).publisher.record(initialDemand: .none)
      await concurrentPerform(4) { thread in
        if thread == 0 {
          recorder.cancel()
        } else {
          for _ in 0..<20 { recorder.request(.max(1)) }
        }
      }
      let values = recorder.values
      #expect(values == Array(1..<(values.count + 1)))
      #expect(values.count <= 60)
      #expect(recorder.receivedCompletion == nil)
    }
  }
}
