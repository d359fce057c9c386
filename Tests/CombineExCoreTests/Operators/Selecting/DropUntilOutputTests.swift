import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("drop(untilOutputFrom:)")
struct DropUntilOutputTests {
  // MARK: Normal path

  @Test("drops upstream values until the other publisher emits, then lets every value through")
  func dropsUntilTrigger() {
    let values = PassthroughSubject<Int, Never>()
    let trigger = PassthroughSubject<Void, Never>()
    let dropped: Publishers.DropUntilOutput = values.drop(untilOutputFrom: trigger)
    let recorder = dropped.record()
    values.send(1)
    values.send(2)
    trigger.send()
    values.send(3)
    values.send(4)
    #expect(recorder.values == [3, 4])
  }

  @Test(
    "the other publisher is subscribed first, asked for one value, and, as in Combine, left alone after it until the result ends"
  )
  func otherAskedForOneValue() {
    let log = UpstreamLog()
    let order = LockedBox<[String]>([])
    let trigger = PassthroughSubject<Int, Never>()
    let upstream = PassthroughSubject<Int, Never>()
    let recorder = upstream.handleEvents(receiveSubscription: { _ in
      order.withLock { $0.append("upstream") }
    })
    .drop(
      untilOutputFrom: trigger.probed(log).handleEvents(receiveSubscription: { _ in
        order.withLock { $0.append("other") }
      })
    )
    .record()
    #expect(order.withLock { $0 } == ["other", "upstream"])
    #expect(log.requests == [.max(1)])
    trigger.send(1)
    #expect(log.cancels == 0)
    upstream.send(5)
    #expect(recorder.values == [5])
    recorder.cancel()
    #expect(log.cancels == 1)  // the result's end cancels it
  }

  @Test("after the other publisher's value, the upstream's completion cancels the other publisher")
  func otherCancelledAtTheEnd() {
    let log = UpstreamLog()
    let trigger = PassthroughSubject<Int, Never>()
    let upstream = PassthroughSubject<Int, Never>()
    let recorder = upstream.drop(untilOutputFrom: trigger.probed(log)).record()
    trigger.send(1)
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion.isFinished)
    #expect(log.cancels == 1)
  }

  @Test("an other publisher that emits synchronously lets every value through")
  func synchronousTrigger() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher()
      .drop(untilOutputFrom: Just(()))
      .record()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("DropUntilOutput is Equatable when its publishers are")
  func equatable() {
    #expect(Just(1).drop(untilOutputFrom: Just(2)) == Just(1).drop(untilOutputFrom: Just(2)))
    #expect(Just(1).drop(untilOutputFrom: Just(2)) != Just(1).drop(untilOutputFrom: Just(3)))
  }

  // MARK: Completion

  @Test("the upstream's completion passes through and cancels the other publisher")
  func upstreamCompletion() {
    let values = PassthroughSubject<Int, TestError>()
    let trigger = PassthroughSubject<Void, TestError>()
    var triggerCancelled = false
    let recorder =
      values
      .drop(untilOutputFrom: trigger.handleEvents(receiveCancel: { triggerCancelled = true }))
      .record()
    values.send(completion: .failure(TestError(1)))
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(triggerCancelled)
  }

  @Test("the other publisher finishing before a value finishes the result and cancels the upstream")
  func otherFinishesFirst() {
    let values = PassthroughSubject<Int, Never>()
    let trigger = PassthroughSubject<Void, Never>()
    var upstreamCancelled = false
    let recorder = values.handleEvents(receiveCancel: { upstreamCancelled = true })
      .drop(untilOutputFrom: trigger)
      .record()
    values.send(1)
    trigger.send(completion: .finished)
    values.send(2)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
    #expect(upstreamCancelled)
  }

  @Test("the other publisher failing before a value fails the result and cancels the upstream")
  func otherFailsFirst() {
    let values = PassthroughSubject<Int, TestError>()
    let trigger = PassthroughSubject<Void, TestError>()
    var upstreamCancelled = false
    let recorder = values.handleEvents(receiveCancel: { upstreamCancelled = true })
      .drop(untilOutputFrom: trigger)
      .record()
    trigger.send(completion: .failure(TestError(2)))
    #expect(recorder.receivedCompletion?.failure == TestError(2))
    #expect(upstreamCancelled)
  }

  @Test("after the other publisher's value, its completion does not matter")
  func otherCompletionAfterTrigger() {
    let values = PassthroughSubject<Int, TestError>()
    let trigger = ScriptedUpstream<Void, TestError>()
    let recorder = values.drop(untilOutputFrom: trigger).record()
    trigger.send(())
    trigger.send(completion: .failure(TestError(3)))
    values.send(1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("empty upstream finishes at once")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().drop(untilOutputFrom: PassthroughSubject<Int, Never>())
      .record()
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Demand

  @Test("a dropped value uses up the demand it was sent for, as in Combine")
  func droppedValuesUseDemand() {
    let values = ManualPublisher<Int, Never>()
    let trigger = PassthroughSubject<Void, Never>()
    let recorder = values.drop(untilOutputFrom: trigger).record(initialDemand: .max(2))
    #expect(values.send(1))
    #expect(values.send(2))
    #expect(values.requested == .max(2))  // nothing given back
    trigger.send()
    #expect(!values.send(3))  // no demand left
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(values.send(3))
    #expect(recorder.values == [3])
  }

  @Test("demand requested before the upstream's subscription is requested when it arrives")
  func demandBeforeSubscription() {
    let late = LateSubscriptionPublisher<Int, Never>()
    let recorder = late.drop(untilOutputFrom: PassthroughSubject<Void, Never>())
      .record(initialDemand: .max(3))
    recorder.request(.max(4))
    late.deliverSubscription()
    #expect(late.subscription?.requested == .max(7))
  }

  // MARK: Cancel

  @Test("cancel reaches the upstream and the other publisher, and nothing is delivered afterwards")
  func cancelReachesBoth() {
    let values = PassthroughSubject<Int, Never>()
    let trigger = PassthroughSubject<Void, Never>()
    var cancelled: [String] = []
    let recorder = values.handleEvents(receiveCancel: { cancelled.append("upstream") })
      .drop(untilOutputFrom: trigger.handleEvents(receiveCancel: { cancelled.append("other") }))
      .record()
    recorder.cancel()
    trigger.send()
    values.send(1)
    #expect(recorder.values.isEmpty)
    #expect(cancelled == ["upstream", "other"])
  }

  @Test(
    "cancelled during subscription: the other publisher is not subscribed; the upstream is, as in Combine, and cancelled at once"
  )
  func cancelledDuringSubscription() {
    let values = ManualPublisher<Int, Never>()
    let trigger = ManualPublisher<Int, Never>()
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.cancel() }, receiveValue: { _ in .none },
      receiveCompletion: { _ in })
    values.drop(untilOutputFrom: trigger).subscribe(subscriber)
    #expect(trigger.subscriptionCount == 0)
    #expect(values.subscriptionCount == 1)
    #expect(values.isCancelled)
  }

  @Test("the pipeline is freed after completion and after cancel")
  func freed() {
    let values = PassthroughSubject<Int, Never>()
    let trigger = PassthroughSubject<Void, Never>()
    let completed = LeakProbe<Int, Never>()
    let cancelled = LeakProbe<Int, Never>()
    values.drop(untilOutputFrom: trigger).subscribe(cancelled)
    cancelled.cancel()
    #expect(cancelled.subscriptionObject == nil)
    values.drop(untilOutputFrom: trigger).subscribe(completed)
    trigger.send()
    values.send(1)
    values.send(completion: .finished)
    #expect(completed.values == [1])
    #expect(completed.subscriptionObject == nil)
  }

  // MARK: Re-entrancy

  @Test("cancelling from inside receive cancels the upstream and nothing more arrives")
  func reentrantCancel() {
    let values = PassthroughSubject<Int, Never>()
    var upstreamCancelled = false
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = values.handleEvents(receiveCancel: { upstreamCancelled = true })
      .drop(untilOutputFrom: Just(()))
      .sink { value in
        received.append(value)
        cancellable?.cancel()
      }
    values.send(1)
    values.send(2)
    #expect(received == [1])
    #expect(upstreamCancelled)
  }

  // MARK: Misuse

  @Test(
    "an upstream value beyond the demand, before the other publisher's value, stops the program, as in Combine"
  )
  func unrequestedValueWhileDroppingStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let upstream = LateSubscriptionUpstream<Int, Never>()
      let recorder = upstream.drop(untilOutputFrom: PassthroughSubject<Void, Never>())
        .record(initialDemand: .max(1))
      upstream.sendSubscription()
      upstream.send(1)  // requested: dropped
      upstream.send(2)  // not requested
      _ = recorder
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains(
          "CombineEx API violation: the upstream of drop(untilOutputFrom:) sent a value that was"
            + " not requested") == true)
  }

  @Test(
    "after the other publisher finished, an upstream value that was never requested stops the program, as in Combine"
  )
  func unrequestedValueAfterTheEndStops() async {
    await #expect(processExitsWith: .failure) {
      let upstream = LateSubscriptionUpstream<Int, Never>()
      let recorder = upstream.drop(untilOutputFrom: Empty<Void, Never>())
        .record(initialDemand: .none)
      upstream.sendSubscription()
      upstream.send(0)
      _ = recorder
    }
  }

  @Test("an upstream value before its subscription, not requested, stops the program")
  func unrequestedValueBeforeSubscriptionStops() async {
    await #expect(processExitsWith: .failure) {
      let upstream = LateSubscriptionUpstream<Int, Never>()
      let recorder = upstream.drop(untilOutputFrom: PassthroughSubject<Void, Never>())
        .record(initialDemand: .none)
      upstream.send(0)
      _ = recorder
    }
  }

  @Test("an upstream value that crosses a cancel, within the demand, is ignored")
  func requestedValueAfterCancelIsIgnored() {
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let recorder = upstream.drop(untilOutputFrom: PassthroughSubject<Void, Never>())
      .record(initialDemand: .max(2))
    upstream.sendSubscription()
    #expect(upstream.send(1) == .none)  // dropped
    recorder.cancel()
    #expect(upstream.send(2) == .none)  // sent before the upstream saw the cancel
    upstream.send(completion: .finished)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.completionCount == 0)
  }

  @Test(
    "after the other publisher's value, an upstream value after a cancel is ignored, whatever the demand"
  )
  func valuesAfterTheTriggerAreNotChecked() {
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let trigger = PassthroughSubject<Void, Never>()
    let recorder = upstream.drop(untilOutputFrom: trigger).record(initialDemand: .none)
    upstream.sendSubscription()
    trigger.send()
    recorder.cancel()
    #expect(upstream.send(1) == .none)  // ignored after the cancel
    #expect(recorder.values.isEmpty)
  }

  // MARK: Reflection

  @Test(
    "both subscribers show themselves as Combine's: named DropUntilOutput, no mirror children, the name as the playground value"
  )
  func reflection() {
    let upstream = AttachedSubscriberPublisher()
    let other = AttachedSubscriberPublisher()
    let recorder = upstream.drop(untilOutputFrom: other).record()
    let subscribers = [upstream.attached, other.attached].compactMap { $0 }
    #expect(subscribers.count == 2)
    for subscriber in subscribers {
      #expect((subscriber as? any CustomStringConvertible)?.description == "DropUntilOutput")
      #expect(
        (subscriber as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
          == "DropUntilOutput")
      #expect((subscriber as? any CustomReflectable)?.customMirror.children.isEmpty == true)
    }
    recorder.cancel()
  }

  // MARK: Stress

  @Test(
    "stress: a trigger from another thread while eight threads send lets a suffix of each thread's values through, serially"
  )
  func stressTrigger() async {
    let values = PassthroughSubject<Int, Never>()
    let trigger = PassthroughSubject<Void, Never>()
    let subscriber = OrderedStressSubscriber<Int, Never>()
    values.drop(untilOutputFrom: trigger).subscribe(subscriber)
    await runOnThreads(8) { thread in
      for value in 0..<400 {
        if thread == 0, value == 200 { trigger.send() }
        values.send(thread * 1000 + value)
      }
    }
    values.send(completion: .finished)
    let received = subscriber.values
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    for thread in 0..<8 {
      // Once the trigger has switched the state, every later value of the thread gets through.
      let mine = received.filter { $0 / 1000 == thread }.map { $0 % 1000 }
      #expect(mine == Array((400 - mine.count)..<400))
    }
    #expect(received.filter { $0 / 1000 == 0 }.count >= 200)
  }
}

/// A publisher that keeps the subscriber attached to it, as attached (not erased), and never
/// sends anything.
private final class AttachedSubscriberPublisher: Publisher {
  typealias Output = Int
  typealias Failure = Never

  private(set) var attached: Any?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    attached = subscriber
  }
}
