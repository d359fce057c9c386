import CombineEx
import CombineExTesting
import Dispatch
import Foundation
import Testing

@Suite("complete(after:)")
struct CompleteAfterTests {
  @Test("values before the deadline pass, then the stream finishes at the deadline")
  func finishesAtDeadline() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.complete(after: .seconds(2), scheduler: scheduler).record()
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    subject.send(2)
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance(by: .seconds(1))
    subject.send(3)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("the deadline counts from the subscription, once per subscription")
  func countsFromSubscription() {
    let scheduler = DispatchQueue.test
    let publisher = Empty<Int, Never>(completeImmediately: false)
      .complete(after: .seconds(2), scheduler: scheduler)
    scheduler.advance(by: .seconds(5))
    let recorder = publisher.record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("an earlier completion or a cancel ends it, and the timer does nothing afterwards")
  func earlierEndAndCancel() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, ColdTestError>()
    let failed = subject.complete(after: .seconds(2), scheduler: scheduler).record()
    subject.send(completion: .failure(ColdTestError(1)))
    scheduler.advance(by: .seconds(3))
    #expect(failed.receivedCompletion == .failure(ColdTestError(1)))
    #expect(failed.completionCount == 1)

    let probe = SubscriptionProbe(PassthroughSubject<Int, Never>())
    let cancelled = probe.publisher.complete(after: .seconds(2), scheduler: scheduler).record()
    cancelled.cancel()
    scheduler.advance(by: .seconds(3))
    #expect(probe.cancels == 1)
    #expect(cancelled.receivedCompletion == nil)
  }

  @Test("demand passes through to the upstream")
  func demand() {
    let scheduler = DispatchQueue.test
    let recorder = [1, 2, 3].publisher.append(Empty(completeImmediately: false))
      .complete(after: .seconds(1), scheduler: scheduler)
      .record(initialDemand: .max(2))
    #expect(recorder.values == [1, 2])
    scheduler.advance(by: .seconds(1))
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("complete(after: seconds) finishes on the main queue")
  func secondsOnMainQueue() async {
    let subject = PassthroughSubject<Int, Never>()
    let onMain = LockedBox<Bool?>(nil)
    let publisher = subject.complete(after: 0.01)
    #expect(
      type(of: publisher)
        == Publishers.PrefixUntilOutput<
          PassthroughSubject<Int, Never>, Publishers.Delay<Just<Void>, DispatchQueue>
        >.self)
    // No value is sent: on a loaded machine the 10 ms may be over before a send could run, and
    // values passing before the deadline are pinned with virtual time above.
    let recorder = publisher.handleFinished { onMain.withLock { $0 = MainQueue.isCurrent } }
      .record()
    #expect(await recorder.completion == .finished)
    #expect(onMain.withLock { $0 } == true)
  }

  @Test("on a cold publisher it stays cold")
  func coldness() {
    let scheduler = DispatchQueue.test
    let runs = RunCounter()
    let erased: AnyDeferredPublisher<Int, Never> = countingDeferred([1], counter: runs)
      .complete(after: .seconds(1), scheduler: scheduler)
      .eraseToAnyDeferredPublisher()
    #expect(erased.record().values == [1])
    #expect(erased.record().values == [1])
    #expect(runs.value == 2)
  }
}
