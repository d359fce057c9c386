import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("prefix(untilOutputFrom:)")
struct PrefixUntilOutputTests {
  // MARK: Normal path

  @Test("republishes values until the other publisher emits, then finishes")
  func prefixUntilTrigger() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    let prefixed: Publishers.PrefixUntilOutput = values.prefix(untilOutputFrom: stop)
    let recorder = prefixed.record()
    values.send(1)
    values.send(2)
    stop.send()
    values.send(3)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
  }

  @Test("the other publisher's value cancels the upstream and the other publisher at once")
  func triggerCancelsBoth() {
    let values = PassthroughSubject<Int, TestError>()
    let stop = PassthroughSubject<String, Never>()
    var cancelled: [String] = []
    let recorder = values.handleEvents(receiveCancel: { cancelled.append("upstream") })
      .prefix(untilOutputFrom: stop.handleEvents(receiveCancel: { cancelled.append("other") }))
      .record()
    stop.send("stop")
    #expect(cancelled == ["upstream", "other"])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the other publisher is subscribed first and asked for one value")
  func otherAskedForOneValue() {
    let log = UpstreamLog()
    let order = LockedBox<[String]>([])
    let upstream = PassthroughSubject<Int, Never>()
    let recorder = upstream.handleEvents(receiveSubscription: { _ in
      order.withLock { $0.append("upstream") }
    })
    .prefix(
      untilOutputFrom: PassthroughSubject<Int, Never>().probed(log).handleEvents(
        receiveSubscription: { _ in order.withLock { $0.append("other") } })
    )
    .record()
    #expect(recorder.isSubscribed)
    #expect(order.withLock { $0 } == ["other", "upstream"])
    #expect(log.requests == [.max(1)])
  }

  @Test(
    "an other publisher that emits synchronously finishes at once, before any value; the upstream's subscription is cancelled"
  )
  func synchronousTrigger() {
    let values = ManualPublisher<Int, Never>()
    let recorder = values.prefix(untilOutputFrom: Just(0)).record()
    #expect(recorder.isSubscribed)  // its subscription, then `.finished`
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
    #expect(values.subscriptionCount == 1)  // subscribed anyway, as in Combine
    #expect(values.isCancelled)
  }

  @Test("an upstream that completes before its subscription ends the result silently")
  func completionBeforeSubscription() {
    let log = UpstreamLog()
    let late = LateSubscriptionPublisher<Int, Never>()
    let recorder = late.prefix(untilOutputFrom: PassthroughSubject<Int, Never>().probed(log))
      .record()
    late.sendCompletionBeforeSubscription()
    #expect(!recorder.isSubscribed)
    #expect(recorder.receivedCompletion == nil)
    #expect(log.cancels == 1)
  }

  @Test("PrefixUntilOutput is Equatable when its publishers are")
  func equatable() {
    #expect(Just(1).prefix(untilOutputFrom: Just(2)) == Just(1).prefix(untilOutputFrom: Just(2)))
    #expect(Just(1).prefix(untilOutputFrom: Just(2)) != Just(1).prefix(untilOutputFrom: Just(3)))
  }

  // MARK: Completion

  @Test("the other publisher's completion without a value is ignored, whatever its failure type")
  func otherCompletionIgnored() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, TestError>()
    let recorder = values.prefix(untilOutputFrom: stop).record()
    stop.send(completion: .failure(TestError(1)))
    values.send(1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("the upstream's completion passes through and cancels the other publisher")
  func upstreamCompletion() {
    let values = PassthroughSubject<Int, TestError>()
    var otherCancelled = false
    let recorder =
      values
      .prefix(
        untilOutputFrom: PassthroughSubject<Int, Never>().handleEvents(receiveCancel: {
          otherCancelled = true
        })
      )
      .record()
    values.send(1)
    values.send(completion: .failure(TestError(2)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(2))
    #expect(otherCancelled)
  }

  @Test("empty upstream finishes at once")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().prefix(untilOutputFrom: PassthroughSubject<Int, Never>())
      .record()
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Demand

  @Test("demand passes straight through, including the demand returned from receive")
  func demandPassesThrough() {
    let values = ManualPublisher<Int, Never>()
    let recorder = values.prefix(untilOutputFrom: PassthroughSubject<Int, Never>())
      .record(initialDemand: .max(1), demandAfterEachValue: .max(2))
    #expect(values.requested == .max(1))
    #expect(values.send(1))
    #expect(values.requested == .max(3))
    recorder.request(.max(1))
    #expect(values.requested == .max(4))
    #expect(recorder.values == [1])
  }

  @Test("no demand: nothing is delivered")
  func noDemand() {
    let values = ManualPublisher<Int, Never>()
    let recorder = values.prefix(untilOutputFrom: PassthroughSubject<Int, Never>())
      .record(initialDemand: .none)
    #expect(!values.send(1))
    #expect(recorder.values.isEmpty)
  }

  @Test("the subscriber receives its subscription when the upstream's arrives, as in Combine")
  func subscriptionWhenUpstreamsArrives() {
    let late = LateSubscriptionPublisher<Int, Never>()
    let recorder = late.prefix(untilOutputFrom: PassthroughSubject<Int, Never>())
      .record(initialDemand: .max(2))
    #expect(!recorder.isSubscribed)
    late.deliverSubscription()
    #expect(recorder.isSubscribed)
    #expect(late.subscription?.requested == .max(2))
  }

  // MARK: Cancel

  @Test("cancel reaches the upstream, then the other publisher; nothing is delivered afterwards")
  func cancelReachesBoth() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    var cancelled: [String] = []
    let recorder = values.handleEvents(receiveCancel: { cancelled.append("upstream") })
      .prefix(untilOutputFrom: stop.handleEvents(receiveCancel: { cancelled.append("other") }))
      .record()
    recorder.cancel()
    values.send(1)
    stop.send()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    #expect(cancelled == ["upstream", "other"])
  }

  @Test("the pipeline is freed after the trigger and after cancel")
  func freed() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    let finished = LeakProbe<Int, Never>()
    let cancelled = LeakProbe<Int, Never>()
    values.prefix(untilOutputFrom: stop).subscribe(finished)
    values.prefix(untilOutputFrom: stop).subscribe(cancelled)
    values.send(1)
    cancelled.cancel()
    #expect(cancelled.subscriptionObject == nil)
    stop.send()
    #expect(finished.values == [1])
    #expect(finished.completion.isFinished)
    #expect(finished.subscriptionObject == nil)
  }

  // MARK: Re-entrancy

  @Test("a trigger sent from inside receive finishes after receive returns, with nothing nested")
  func reentrantTrigger() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    var log: [String] = []
    let cancellable = values.prefix(untilOutputFrom: stop).sink(
      receiveCompletion: { log.append("\($0)") },
      receiveValue: { value in
        log.append("value \(value)")
        stop.send()
        log.append("returned")
      })
    values.send(1)
    values.send(2)
    #expect(log == ["value 1", "returned", "finished"])
    withExtendedLifetime(cancellable) {}
  }

  @Test(
    "a value sent re-entrantly from inside receive passes through, as it would without the operator"
  )
  func reentrantValue() {
    let values = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = values.prefix(untilOutputFrom: PassthroughSubject<Int, Never>()).sink {
      received.append($0)
      if $0 == 1 { values.send(2) }
    }
    values.send(1)
    #expect(received == [1, 2])
    withExtendedLifetime(cancellable) {}
  }

  // MARK: Stress

  @Test(
    "stress: a trigger from another thread while values flow never overlaps a delivery, and finishes once, last"
  )
  func stressTrigger() async {
    for _ in 0..<20 {
      let values = PassthroughSubject<Int, Never>()
      let stop = PassthroughSubject<Void, Never>()
      let subscriber = OrderedStressSubscriber<Int, Never>()
      values.prefix(untilOutputFrom: stop).subscribe(subscriber)
      await runOnThreads(8) { thread in
        for value in 0..<100 {
          if thread == 0, value == 50 {
            stop.send()
          } else if thread != 0 {
            values.send(thread * 1000 + value)
          }
        }
      }
      #expect(subscriber.overlaps == 0)
      #expect(subscriber.completions == 1)
      #expect(!subscriber.valueAfterCompletion)
    }
  }

  // MARK: Cancel after the trigger

  @Test("a subscriber that fires the trigger, then cancels, inside receive gets no completion")
  func triggerThenCancelInsideReceive() {
    final class TriggerThenCancel: Subscriber {
      typealias Input = Int
      typealias Failure = Never
      let stop: PassthroughSubject<Void, Never>
      var subscription: (any Subscription)?
      var events: [String] = []
      init(stop: PassthroughSubject<Void, Never>) { self.stop = stop }
      func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
      }
      func receive(_ input: Int) -> Subscribers.Demand {
        events.append("\(input)")
        stop.send()
        subscription?.cancel()
        return .none
      }
      func receive(completion: Subscribers.Completion<Never>) {
        events.append("completion")
      }
    }
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    let subscriber = TriggerThenCancel(stop: stop)
    values.prefix(untilOutputFrom: stop).subscribe(subscriber)
    values.send(1)
    #expect(subscriber.events == ["1"])
  }

  // MARK: Reflection

  @Test("its subscribers and its subscription show no description, mirror or playground value")
  func reflection() throws {
    let upstream = AttachedSubscriberUpstream<Int, Never>()
    let other = AttachedSubscriberUpstream<Int, Never>()
    let keeper = SubscriptionKeeper<Int, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(keeper)
    let attached = try #require(upstream.attached)
    #expect(DebuggerView(attached).isPlain)
    #expect(DebuggerView(try #require(other.attached)).isPlain)
    upstream.send(subscription: NamedTestSubscription())
    let subscription = try #require(keeper.subscription)
    #expect(DebuggerView(subscription).isPlain)
    #expect(subscription.combineIdentifier == (attached as? any Subscriber)?.combineIdentifier)
  }

  @Test("the subscription in front of the driver passes the requests and the cancel on")
  func plainSubscriptionForwards() throws {
    let upstream = ScriptedUpstream<Int, Never>()
    let other = PassthroughSubject<Void, Never>()
    let keeper = SubscriptionKeeper<Int, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(keeper)
    let subscription = try #require(keeper.subscription)
    subscription.request(.max(2))
    #expect(upstream.requests == [.max(2)])
    subscription.cancel()
    #expect(upstream.cancels == 1)
  }
}
