import CombineExCore
import CombineExTesting
import Dispatch
import Foundation
import Testing

@Suite("receive(on:)")
struct ReceiveOnTests {
  @Test("values wait for the scheduler and then arrive in order")
  func deliversOnScheduler() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.receive(on: scheduler).record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(recorder.values == [])
    scheduler.advance()
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("the subscription reaches the subscriber at once, without the scheduler")
  func subscriptionIsSynchronous() {
    let scheduler = DispatchQueue.test
    let recorder = PassthroughSubject<Int, Never>().receive(on: scheduler).record()
    #expect(recorder.isSubscribed)
  }

  @Test("the completion is scheduled too, after the values")
  func completionAfterValues() {
    let scheduler = DispatchQueue.test
    let recorder = [1, 2].publisher.receive(on: scheduler).record()
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance()
    #expect(recorder.events == [.subscription, .value(1), .value(2), .completion(.finished)])
  }

  @Test("passes the upstream's failure on, on the scheduler")
  func forwardsFailure() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.receive(on: scheduler).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(3)))
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let scheduler = DispatchQueue.test
    let recorder = Empty<Int, Never>().receive(on: scheduler).record()
    scheduler.advance()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("demand passes straight to the upstream")
  func demandPassesThrough() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = [1, 2, 3].publisher.probed(log).receive(on: scheduler)
      .record(initialDemand: .max(1))
    #expect(log.requests == [.max(1)])
    scheduler.advance()
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(log.requests == [.max(1), .max(1)])
    scheduler.advance()
    #expect(recorder.values == [1, 2])
  }

  @Test("demand returned by the subscriber is requested from the upstream on delivery")
  func returnedDemandGoesUpstream() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = [1, 2, 3].publisher.probed(log).receive(on: scheduler)
      .record(initialDemand: .max(1), demandAfterEachValue: .max(1))
    scheduler.advance()
    scheduler.advance()
    scheduler.advance()
    #expect(recorder.values == [1, 2, 3])
    // The third value's demand is requested too, although the sequence finished when it sent
    // it (its completion waits behind the value), as in Combine.
    #expect(log.requests == [.max(1), .max(1), .max(1), .max(1)])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("no demand: nothing is requested and nothing delivered")
  func noDemand() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = [1, 2].publisher.probed(log).receive(on: scheduler).record(initialDemand: .none)
    scheduler.advance()
    #expect(log.requests.isEmpty)
    #expect(recorder.values.isEmpty)
  }

  @Test("after cancel, values already scheduled are not delivered")
  func cancelDropsScheduled() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.receive(on: scheduler).record()
    subject.send(1)
    subject.send(completion: .finished)
    recorder.cancel()
    scheduler.advance()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel reaches the upstream")
  func cancelReachesUpstream() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = PassthroughSubject<Int, Never>().probed(log).receive(on: scheduler).record()
    recorder.cancel()
    #expect(log.cancels == 1)
  }

  @Test("cancel from inside a delivery stops the deliveries that follow")
  func reentrantCancel() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.receive(on: scheduler).sink { value in
      received.append(value)
      if value == 2 { cancellable?.cancel() }
    }
    for value in 1...5 { subject.send(value) }
    scheduler.advance()
    #expect(received == [1, 2])
    _ = cancellable
  }

  @Test("a send from inside a delivery is scheduled after the current ones")
  func reentrantSend() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.receive(on: scheduler).sink { value in
      received.append(value)
      if value == 1 { subject.send(10) }
    }
    subject.send(1)
    subject.send(2)
    scheduler.advance()
    #expect(received == [1, 2, 10])
    _ = cancellable
  }

  @Test("cancel releases the subscriber")
  func cancelReleases() {
    let scheduler = DispatchQueue.test
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.receive(on: scheduler).sink { owner.values.append($0) }
    }
    subject.send(1)
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    scheduler.advance()
  }

  @Test("the ImmediateScheduler delivers at once")
  func immediateScheduler() {
    let recorder = [1, 2, 3].publisher.receive(on: ImmediateScheduler.shared).record()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("on a serial DispatchQueue, values arrive on that queue, in order")
  func realQueue() async {
    let queue = DispatchQueue(label: "receive-on")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let onQueue = Log<Bool>()
    let subject = PassthroughSubject<Int, Never>()
    let recorder =
      subject
      .receive(on: queue)
      .map { value -> Int in
        onQueue.append(DispatchQueue.getSpecific(key: key) == true)
        return value
      }
      .record()
    for value in 0..<100 { subject.send(value) }
    subject.send(completion: .finished)
    #expect(await recorder.values(count: 100) == Array(0..<100))
    #expect(await recorder.completion == .finished)
    #expect(onQueue.values.allSatisfy { $0 })
  }

  @Test("stress: a cancel made on the delivery queue is never followed by a delivery")
  func stressCancelOnQueue() async {
    let violations = Log<Int>()
    await concurrentPerform(8) { round in
      for iteration in 0..<50 {
        let queue = DispatchQueue(label: "stress-\(round)-\(iteration)")
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = CancelledMark()
        let cancellable = subject.receive(on: queue).sink { value in
          if cancelled.isSet { violations.append(value) }
        }
        let producer = DispatchQueue(label: "producer-\(round)-\(iteration)")
        producer.async {
          for value in 0..<40 { subject.send(value) }
        }
        queue.async {
          cancellable.cancel()
          cancelled.set()
        }
        producer.sync {}
        queue.sync {}
      }
    }
    #expect(violations.values.isEmpty)
  }

  @Test("stress: cancels from other threads race deliveries without a crash or late delivery")
  func stressCancelFromOtherThread() async {
    let late = Log<Int>()
    await concurrentPerform(8) { round in
      for iteration in 0..<50 {
        let queue = DispatchQueue(label: "stress-other-\(round)-\(iteration)")
        let subject = PassthroughSubject<Int, Never>()
        let received = Log<Int>()
        let cancellable = subject.receive(on: queue).sink { received.append($0) }
        for value in 0..<20 { subject.send(value) }
        cancellable.cancel()
        let countAtCancel = received.count
        queue.sync {}
        // A delivery that had started before `cancel()` may finish; no other may start.
        if received.count > countAtCancel + 1 { late.append(received.count - countAtCancel) }
        if received.values != Array(0..<received.count) { late.append(-1) }
      }
    }
    #expect(late.values.isEmpty)
  }

  @Test("stress: a concurrent queue still delivers one value at a time, in order")
  func stressConcurrentQueue() async {
    let checker = SerialDeliveryChecker()
    let subject = PassthroughSubject<Int, Never>()
    let done = Flag()
    let cancellable = subject.receive(on: DispatchQueue.global()).sink { value in
      checker.receive(value)
      if value == 1999 { done.raise() }
    }
    for value in 0..<2000 { subject.send(value) }
    #expect(await done.wait())
    #expect(checker.overlaps == 0)
    #expect(checker.values == Array(0..<2000))
    cancellable.cancel()
  }
}

/// A flag the stress tests set right after `cancel()` returns.
final class CancelledMark: @unchecked Sendable {
  // @unchecked Sendable: `value` is guarded by `lock`.
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

// A `sink` behind `receive(on:)` is told when the operator has forgotten it (it then counts
// nothing per value): its closures must still go on every cancel, once no delivery runs, while
// the sink itself is kept.
extension ReceiveOnTests {
  @Test(
    "a cancel from inside a delivery releases a kept sink's closures when that delivery returns")
  func cancelFromInsideReleasesClosures() {
    let scheduler = DispatchQueue.test
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    let received = Log<Int>()
    let kept = KeptSink()
    do {
      let owner = TestOwner()
      weakOwner = owner
      kept.sink = Subscribers.Sink(
        receiveCompletion: { _ in },
        receiveValue: { value in
          owner.values.append(value)
          received.append(value)
          kept.sink?.cancel()
        })
    }
    subject.receive(on: scheduler).subscribe(kept.sink!)
    subject.send(1)
    subject.send(2)
    scheduler.advance()
    #expect(received.values == [1])
    #expect(weakOwner == nil)
  }

  @Test("a cancel from another thread during a delivery releases a kept sink's closures after it")
  func cancelDuringDeliveryReleasesClosuresAfterIt() async {
    let queue = DispatchQueue(label: "receive-on-release")
    let entered = Flag()
    let released = Flag()
    let proceed = DispatchSemaphore(value: 0)
    let subject = PassthroughSubject<Int, Never>()
    let sink: Subscribers.Sink<Int, Never>
    do {
      let probe = ReleaseProbe(released)
      sink = Subscribers.Sink(
        receiveCompletion: { _ in },
        receiveValue: { _ in
          withExtendedLifetime(probe) {}
          entered.raise()
          // The test signals it; 600 s only bounds a broken run.
          _ = proceed.wait(timeout: .now() + 600)
        })
    }
    subject.receive(on: queue).subscribe(sink)
    subject.send(1)
    #expect(await entered.wait())
    sink.cancel()
    // The delivery still runs on the queue: its closures stay until it returns.
    #expect(!released.isRaised)
    proceed.signal()
    #expect(await released.wait())
    withExtendedLifetime(sink) {}
  }
}

/// Keeps a sink that its own closure cancels.
final class KeptSink: @unchecked Sendable {
  // @unchecked Sendable: set before the subscription, read by the one delivering thread.
  var sink: Subscribers.Sink<Int, Never>?
}

/// Raises its flag when it is freed.
private final class ReleaseProbe: Sendable {
  let flag: Flag

  init(_ flag: Flag) {
    self.flag = flag
  }

  deinit {
    flag.raise()
  }
}

// Combine's scheduler calls and demand flow, pinned with a scheduler that records its calls
// (OpenCombine's suite checks the same on Combine).
extension ReceiveOnTests {
  @Test("each value and the completion is delivered from its own schedule(options:) call")
  func oneScheduleCallPerEvent() {
    let scheduler = CallRecordingScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.receive(on: scheduler, options: "options").record()
    #expect(scheduler.calls == [])
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(scheduler.calls == Array(repeating: .schedule(options: "options"), count: 3))
    #expect(recorder.values == [])
    scheduler.advance(to: 0)
    #expect(recorder.values == [1, 2, 3])
    subject.send(completion: .finished)
    #expect(scheduler.calls == Array(repeating: .schedule(options: "options"), count: 4))
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance(to: 0)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("what the upstream sends after its completion is dropped, without a schedule call")
  func eventsAfterCompletionAreNotScheduled() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.receive(on: scheduler).record()
    upstream.send(completion: .failure(TestError(1)))
    upstream.send(completion: .finished)
    #expect(upstream.send(4) == .none)
    #expect(scheduler.calls == [.schedule(options: nil)])
    scheduler.advance(to: 0)
    #expect(recorder.events == [.subscription, .completion(.failure(TestError(1)))])
  }

  @Test("a value sent before the subscription is dropped, without a schedule call")
  func valueBeforeSubscriptionIsDropped() {
    let scheduler = CallRecordingScheduler()
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let recorder = upstream.receive(on: scheduler).record()
    #expect(upstream.send(213) == .none)
    #expect(scheduler.calls == [])
    upstream.sendSubscription()
    scheduler.advance(to: 0)
    #expect(recorder.values == [])
  }

  @Test("on the ImmediateScheduler, a value sent before the subscription is dropped")
  func valueBeforeSubscriptionIsDroppedImmediately() {
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let recorder = upstream.receive(on: ImmediateScheduler.shared).record()
    #expect(upstream.send(213) == .none)
    #expect(recorder.events == [])
    let sinkUpstream = LateSubscriptionUpstream<Int, Never>()
    var received: [Int] = []
    let cancellable = sinkUpstream.receive(on: ImmediateScheduler.shared)
      .sink { received.append($0) }
    #expect(sinkUpstream.send(213) == .none)
    #expect(received == [])
    _ = cancellable
  }

  @Test("each delivered value's demand is requested from the upstream right after it")
  func returnedDemandRequestedPerValue() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.receive(on: scheduler)
      .record(initialDemand: .max(100), demandAfterEachValue: .max(12))
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    #expect(upstream.send(3) == .none)
    #expect(upstream.requests == [.max(100)])
    scheduler.advance(to: 0)
    #expect(recorder.values == [1, 2, 3])
    #expect(upstream.requests == [.max(100), .max(12), .max(12), .max(12)])
  }

  @Test("a value delivered after the upstream completed still requests its demand")
  func demandRequestedWhileCompletionWaits() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.receive(on: scheduler)
      .record(initialDemand: .unlimited, demandAfterEachValue: .max(418))
    upstream.send(-1)
    scheduler.advance(to: 0)
    #expect(upstream.requests == [.unlimited, .max(418)])
    upstream.send(1000)
    upstream.send(completion: .finished)
    #expect(upstream.requests == [.unlimited, .max(418)])
    scheduler.advance(to: 0)
    #expect(recorder.events == [.subscription, .value(-1), .value(1000), .completion(.finished)])
    #expect(upstream.requests == [.unlimited, .max(418), .max(418)])
  }

  @Test("once the upstream completed, the subscriber's requests and cancel stay away from it")
  func completedUpstreamIsLeftAlone() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.receive(on: scheduler).record(initialDemand: .max(1))
    upstream.send(completion: .finished)
    recorder.request(.max(5))
    recorder.cancel()
    scheduler.advance(to: 0)
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.cancels == 0)
    // Nothing after the cancel, not even the completion that was waiting (rule 2).
    #expect(recorder.events == [.subscription])
  }

  @Test("on the ImmediateScheduler, receive returns none and each value requests its own demand")
  func immediateSchedulerRequestsPerValue() {
    let upstream = ScriptedUpstream<Int, Never>()
    var remaining = 5
    var received: [Int] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.request(.unlimited) },
      receiveValue: { value in
        received.append(value)
        if remaining > 0 {
          remaining -= 1
          upstream.send(-1)
        }
        return .max(418)
      },
      receiveCompletion: { _ in })
    upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
    #expect(upstream.send(0) == .none)
    #expect(received == [0, -1, -1, -1, -1, -1])
    #expect(upstream.requests == [.unlimited] + Array(repeating: .max(418), count: 6))
  }

  @Test("on the ImmediateScheduler behind a sink's chain, returned demand goes to the upstream")
  func immediateSchedulerSinkChainRequests() {
    let upstream = ScriptedUpstream<Int, Never>()
    var received: [Int] = []
    // `filter` asks for one more value for each it drops.
    let cancellable = upstream.receive(on: ImmediateScheduler.shared)
      .filter { $0 > 0 }
      .sink { received.append($0) }
    #expect(upstream.send(0) == .none)
    #expect(upstream.send(1) == .none)
    #expect(received == [1])
    #expect(upstream.requests == [.unlimited, .max(1)])
    _ = cancellable
  }
}

extension ReceiveOnTests {
  @Test("the upstream's subscription is kept while its completion waits, released once delivered")
  func upstreamSubscriptionReleasedAfterCompletionDelivery() {
    let scheduler = CallRecordingScheduler()
    let upstream = WeakSubscriptionUpstream()
    let recorder = upstream.receive(on: scheduler).record()
    #expect(upstream.subscription != nil)
    upstream.subscriber?.receive(completion: .finished)
    // The demand of values delivered before the completion may still be requested from it.
    #expect(upstream.subscription != nil)
    scheduler.advance(to: 0)
    #expect(recorder.receivedCompletion == .finished)
    #expect(upstream.subscription == nil)
  }
}

/// An upstream that keeps its subscription only weakly, so a test sees when the operator lets
/// go of it.
private final class WeakSubscriptionUpstream: Publisher {
  typealias Output = Int
  typealias Failure = Never

  /// The subscription handed out, while someone else holds it.
  weak var subscription: Probe?
  /// The subscriber attached.
  var subscriber: AnySubscriber<Int, Never>?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    let probe = Probe()
    subscription = probe
    self.subscriber = AnySubscriber(subscriber)
    subscriber.receive(subscription: probe)
  }

  final class Probe: Subscription {
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
  }
}

extension ReceiveOnTests {
  @Test("a delivered value is released at once while later values wait for the scheduler")
  func deliveredValuesAreReleased() {
    let counter = InstanceCounter()
    let scheduler = OneActionAtATimeScheduler()
    let subject = PassthroughSubject<Counted, Never>()
    let subscriber = CountingSubscriber<Counted, Never>(initialDemand: .unlimited)
    subject.receive(on: scheduler).subscribe(subscriber)
    // The scheduler runs one delivery per value but stays one value behind, so the outbox's
    // queue never drains.
    subject.send(counter.make(0))
    var mostAlive = 0
    for index in 0..<200 {
      subject.send(counter.make(index + 1))
      scheduler.runOldest()
      mostAlive = max(mostAlive, counter.alive)
    }
    #expect(subscriber.count == 200)
    #expect(mostAlive == 1, "only the value waiting for the scheduler is alive")
    subscriber.cancel()
    scheduler.runAll()
    #expect(counter.alive == 0)
  }
}

/// A scheduler whose actions run only when the test says so, one at a time, oldest first.
private final class OneActionAtATimeScheduler: Scheduler, @unchecked Sendable {
  // @unchecked Sendable: used from the test's thread only.
  typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
  typealias SchedulerOptions = Never

  private var actions: [() -> Void] = []

  var now: SchedulerTimeType { DispatchQueue.SchedulerTimeType(.init(uptimeNanoseconds: 1)) }
  var minimumTolerance: SchedulerTimeType.Stride { .zero }

  func schedule(options: Never?, _ action: @escaping () -> Void) {
    actions.append(action)
  }

  func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    actions.append(action)
  }

  func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    actions.append(action)
    return AnyCancellable {}
  }

  /// Runs the oldest scheduled action.
  func runOldest() {
    guard !actions.isEmpty else { return }
    actions.removeFirst()()
  }

  /// Runs every scheduled action, including those scheduled meanwhile.
  func runAll() {
    while !actions.isEmpty { runOldest() }
  }
}
