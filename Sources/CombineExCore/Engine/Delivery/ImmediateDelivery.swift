import Synchronization

/// The subscription of `receive(on: ImmediateScheduler.shared)` for a subscriber known to let
/// go of its subscription when the stream ends (``SubscriptionReleasing``).
///
/// It keeps the semantics of ``ScheduledDelivery`` on the immediate scheduler (every event is
/// delivered at once, on the upstream's thread; an event the upstream sends re-entrantly, from
/// inside the subscriber, is delivered after the current one returns; nothing is delivered
/// once `cancel()` has returned), without its locks:
/// - The upstream's calls (`receive(_:)`, `receive(completion:)`) are serial, as the
///   `Publisher` contract requires, so the re-entrancy bookkeeping (`delivering`, `pending`,
///   `upstreamOpen`) is touched only from inside them and needs no lock.
/// - `cancel()` may come from any thread: it sets the atomic `terminated` flag, which every
///   delivery checks first, and cancels the upstream.
/// - The subscriber lives in a `let`, so delivery reads it without reference counting. That is
///   safe only for subscribers that release their subscription: otherwise the two would keep
///   each other alive. Other subscribers get ``ScheduledDelivery``, which lets go of them.
///
/// Demand flows as in Combine's `receive(on:)`: `receive(_:)` returns `.none`, and the demand
/// the downstream returns from a value is requested from the upstream right after that value's
/// delivery (a `sink`, which returns `.none`, costs no request).
///
/// Per value, delivery costs one atomic load and a call. An upstream's report that it has
/// forgotten the subscription is passed on to the downstream.
///
/// Not on the ``OperatorDriver``: this is the hot path of `receive(on: ImmediateScheduler)`
/// (workload h1 in Docs/Performance.md), which takes no lock per value and queues re-entrant
/// events instead of nesting them, neither of which the driver does.
@usableFromInline
final class ImmediateDelivery<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `status` is guarded by `lock`; `terminated` is atomic; `delivering`,
  // `pending` and `upstreamOpen` are touched only by the upstream's serial calls; `downstream`
  // is immutable.
  @usableFromInline
  typealias Event = OutboxEvent<Downstream.Input, Downstream.Failure>

  @usableFromInline
  let downstream: Downstream

  @usableFromInline
  let lock = Lock()

  /// The upstream subscription. Guarded by `lock`.
  @usableFromInline
  @exclusivity(unchecked)
  var status = OperatorStatus.awaitingSubscription

  /// Set by `cancel()` and when the completion is delivered: nothing more goes downstream.
  @usableFromInline
  let terminated = Atomic<Bool>(false)

  /// Whether the subscriber is being called (re-entrant events wait in `pending`). Upstream
  /// calls only.
  @usableFromInline
  @exclusivity(unchecked)
  var delivering = false

  /// Events the upstream sent from inside a delivery, oldest first. Upstream calls only. An
  /// event leaves it as it is delivered, so a long run of re-entrant sends keeps none of the
  /// values already delivered.
  @usableFromInline
  @exclusivity(unchecked)
  var pending = ValueQueue<Event>()

  /// Whether the upstream's events are taken: from its subscription to its completion (values
  /// before or after are dropped). Upstream calls only.
  @usableFromInline
  @exclusivity(unchecked)
  var upstreamOpen = false

  @inlinable
  init(downstream: Downstream) {
    self.downstream = downstream
  }

  @usableFromInline
  var description: String { "ReceiveOn" }

  // MARK: Subscriber (upstream side)

  @inlinable
  func receive(subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    upstreamOpen = true
    downstream.receive(subscription: self)
  }

  /// From an upstream that reports when it has forgotten this subscription: every delivery
  /// runs inside one of the upstream's calls, so once the upstream has forgotten it, none runs
  /// or will start, and the downstream can be told so too (a `sink` then delivers without
  /// counting its deliveries).
  @inlinable
  func _receive(subscriptionReportingDetach subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    upstreamOpen = true
    handOver(self, reportingDetachTo: downstream)
  }

  /// The upstream forgot this subscription: passes the report on.
  @inlinable
  func _upstreamDetached() {
    reportDetach(to: downstream)
  }

  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    if !upstreamOpen || terminated.load(ordering: .acquiring) { return .none }
    if delivering {
      pending.append(.value(input))
      return .none
    }
    delivering = true
    requestFromUpstream(downstream.receive(input))
    if !pending.isEmpty { deliverPending() }
    delivering = false
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    guard upstreamOpen else { return }
    upstreamOpen = false
    if delivering {
      // The values waiting before it still request their demand: the upstream subscription is
      // released when the completion is delivered.
      pending.append(.completion(completion))
      return
    }
    releaseUpstream()
    if terminated.exchange(true, ordering: .acquiringAndReleasing) { return }
    downstream.receive(completion: completion)
  }

  /// Delivers the events sent re-entrantly, in order, including those sent while delivering
  /// them, requesting the demand returned from each value.
  @usableFromInline
  func deliverPending() {
    while !terminated.load(ordering: .acquiring), let event = pending.popFirst() {
      switch event {
      case .value(let value):
        requestFromUpstream(downstream.receive(value))
      case .completion(let completion):
        releaseUpstream()
        if !terminated.exchange(true, ordering: .acquiringAndReleasing) {
          downstream.receive(completion: completion)
        }
      }
    }
    pending.removeAll()
  }

  /// Requests from the upstream the demand the downstream returned from a delivered value.
  @inlinable
  func requestFromUpstream(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    lock.withLock { status.upstream }?.request(demand)
  }

  /// Lets go of the upstream subscription once its completion is being delivered (outside the
  /// lock: releasing it may free it).
  @usableFromInline
  func releaseUpstream() {
    let released = lock.withLock { status.terminate() }
    _ = released
  }

  // MARK: Subscription (downstream side, any thread)

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.upstream }?.request(demand)
  }

  @inlinable
  func cancel() {
    terminated.store(true, ordering: .releasing)
    let upstream = lock.withLock { status.terminate() }
    upstream?.cancel()
  }
}

extension ImmediateDelivery: SubscriptionReleasing {}

extension ImmediateDelivery: NamedReflection {}
