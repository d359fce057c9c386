import CombineExCore
import Foundation

/// A publisher the test drives by hand, from any thread. Each subscription records how much it
/// was asked for (explicit requests plus demand returned from `receive`) and whether it was
/// cancelled; `send` delivers only within the demand, so a test can check that an operator
/// never asks an input for more than it needs.
final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked Sendable: `subscriptions` is guarded by `lock`.
  private let lock = NSLock()
  private var subscriptions: [ManualSubscription<Output, Failure>] = []

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = ManualSubscription(AnySubscriber(subscriber))
    lock.withLock { subscriptions.append(subscription) }
    subscriber.receive(subscription: subscription)
  }

  /// Every subscription made so far, oldest first.
  var allSubscriptions: [ManualSubscription<Output, Failure>] {
    lock.withLock { subscriptions }
  }

  /// How many times the publisher was subscribed.
  var subscriptionCount: Int { lock.withLock { subscriptions.count } }

  /// The latest subscription (the test fails on a nil unwrap if there is none).
  var latest: ManualSubscription<Output, Failure>? { lock.withLock { subscriptions.last } }

  /// What the latest subscription was asked for in total (`.none` without one).
  var requested: Subscribers.Demand { latest?.requested ?? .none }

  /// Whether the latest subscription was cancelled.
  var isCancelled: Bool { latest?.isCancelled ?? false }

  /// Sends a value through the latest subscription; returns `false` (sending nothing) if it
  /// has no demand, or was cancelled or completed.
  @discardableResult
  func send(_ value: Output) -> Bool { latest?.send(value) ?? false }

  /// Sends a value, yielding the thread until the latest subscription has demand for it.
  func sendWhenDemanded(_ value: Output) {
    while !send(value) { sched_yield() }
  }

  /// Completes the latest subscription.
  func send(completion: Subscribers.Completion<Failure>) { latest?.send(completion: completion) }
}

/// One subscription of a ``ManualPublisher``.
///
/// Safe to drive from several threads at once (the CombineLatest and Zip stress tests send
/// into one input from two threads): `send` and `send(completion:)` take `deliveryLock` around
/// the call to the downstream, so the downstream receives one event at a time per
/// subscription, as the subscriber rules require of a publisher.
final class ManualSubscription<Output, Failure: Error>: Subscription, @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`, and `deliveryLock`
  // serializes the calls to the downstream.
  private let lock = NSLock()
  /// Held while the downstream receives an event. Recursive, so that the downstream may send
  /// into this subscription again from inside `receive`; `request` and `cancel` never take it,
  /// so the downstream may call them from inside `receive` and other threads are not blocked
  /// by a delivery to ask for values or cancel.
  private let deliveryLock = NSRecursiveLock()
  private var downstream: AnySubscriber<Output, Failure>?
  private var outstanding = Subscribers.Demand.none
  private var total = Subscribers.Demand.none
  private var cancelled = false
  private var requestCount = 0

  init(_ downstream: AnySubscriber<Output, Failure>) {
    self.downstream = downstream
  }

  /// Everything this subscription was asked for.
  var requested: Subscribers.Demand { lock.withLock { total } }

  /// How many `request` calls it received.
  var requests: Int { lock.withLock { requestCount } }

  /// Whether it was cancelled.
  var isCancelled: Bool { lock.withLock { cancelled } }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock {
      outstanding += demand
      total += demand
      requestCount += 1
    }
  }

  func cancel() {
    lock.withLock {
      cancelled = true
      downstream = nil
    }
  }

  /// Delivers `value` if there is demand; returns whether it did. A send from another thread
  /// waits until the delivery in progress returns.
  func send(_ value: Output) -> Bool {
    deliveryLock.lock()
    defer { deliveryLock.unlock() }
    let downstream = lock.withLock { () -> AnySubscriber<Output, Failure>? in
      guard !cancelled, outstanding > 0, let downstream = self.downstream else { return nil }
      outstanding -= 1
      return downstream
    }
    guard let downstream else { return false }
    let more = downstream.receive(value)
    lock.withLock {
      outstanding += more
      total += more
    }
    return true
  }

  func send(completion: Subscribers.Completion<Failure>) {
    deliveryLock.lock()
    defer { deliveryLock.unlock() }
    let downstream = lock.withLock { () -> AnySubscriber<Output, Failure>? in
      defer { self.downstream = nil }
      return cancelled ? nil : self.downstream
    }
    downstream?.receive(completion: completion)
  }
}

/// A publisher that keeps its subscriber and hands it a ``ManualSubscription`` only when the
/// test calls ``deliverSubscription()``: for subscriptions that arrive late (after a cancel).
final class LateSubscriptionPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked Sendable: used from one thread per test.
  private var subscriber: AnySubscriber<Output, Failure>?
  private(set) var subscription: ManualSubscription<Output, Failure>?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    self.subscriber = AnySubscriber(subscriber)
  }

  /// Hands the waiting subscriber its subscription.
  func deliverSubscription() {
    guard let subscriber else { return }
    let subscription = ManualSubscription(subscriber)
    self.subscription = subscription
    subscriber.receive(subscription: subscription)
  }

  /// Sends the waiting subscriber `.finished` before any subscription (a misbehaving upstream).
  func sendCompletionBeforeSubscription() {
    subscriber?.receive(completion: .finished)
  }
}

/// A subscriber that holds its subscription only until completion or cancel, and watches it
/// through a weak reference: `subscriptionObject == nil` afterwards means the operator's
/// subscription (and everything it held) was freed.
final class LeakProbe<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: used from one thread per test.
  private var subscription: (any Subscription)?
  weak var subscriptionObject: AnyObject?
  private(set) var values: [Input] = []
  private(set) var completion: Subscribers.Completion<Failure>?
  private let initialDemand: Subscribers.Demand

  init(initialDemand: Subscribers.Demand = .unlimited) {
    self.initialDemand = initialDemand
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    subscriptionObject = subscription as AnyObject
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    values.append(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    self.completion = completion
    subscription = nil
  }

  func cancel() {
    subscription?.cancel()
    subscription = nil
  }
}

/// A subscriber for stress tests: counts values and completions from any thread, checks that
/// deliveries never overlap, and lets the test run code inside `receive`.
final class StressSubscriber<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: `state` is a LockedBox; `subscription` is guarded by `subscriptionLock`.
  private let state = LockedBox<(values: [Input], completions: Int, inside: Int, overlaps: Int)>(
    ([], 0, 0, 0))
  private let initialDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private let subscriptionLock = NSLock()
  private var subscription: (any Subscription)?

  init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
  }

  var values: [Input] { state.withLock { $0.values } }
  var completions: Int { state.withLock { $0.completions } }
  var overlaps: Int { state.withLock { $0.overlaps } }

  func request(_ demand: Subscribers.Demand) {
    subscriptionLock.withLock { subscription }?.request(demand)
  }

  func cancelSubscription() {
    subscriptionLock.withLock { subscription }?.cancel()
  }

  func receive(subscription: any Subscription) {
    subscriptionLock.withLock { self.subscription = subscription }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    enter()
    state.withLock { $0.values.append(input) }
    leave()
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    enter()
    state.withLock { $0.completions += 1 }
    leave()
  }

  private func enter() {
    state.withLock {
      $0.inside += 1
      if $0.inside > 1 { $0.overlaps += 1 }
    }
    // Widen the window in which an overlapping delivery would be seen.
    sched_yield()
  }

  private func leave() {
    state.withLock { $0.inside -= 1 }
  }
}

/// Runs `body` on `count` new threads, all started at once, and returns when all are done.
///
/// Unlike ``concurrentPerform(_:_:)`` (which may run iterations one after another on a machine
/// with few cores), every iteration gets its own thread, so iterations may wait for each other:
/// a producer may wait for the demand that other iterations request.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    let group = DispatchGroup()
    for index in 0..<count {
      group.enter()
      Thread {
        body(index)
        group.leave()
      }.start()
    }
    group.notify(queue: .global()) { continuation.resume() }
  }
}

/// Whether `values` are in strictly increasing order (the order in which one input sent
/// them).
func isIncreasing(_ values: [Int]) -> Bool {
  zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
}
