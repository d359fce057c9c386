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
///   `upstreamEnded`) is touched only from inside them and needs no lock.
/// - `cancel()` may come from any thread: it sets the atomic `terminated` flag, which every
///   delivery checks first, and cancels the upstream.
/// - The subscriber lives in a `let`, so delivery reads it without reference counting. That is
///   safe only for subscribers that release their subscription: otherwise the two would keep
///   each other alive. Other subscribers get ``ScheduledDelivery``, which lets go of them.
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
  // `pending` and `upstreamEnded` are touched only by the upstream's serial calls; `downstream`
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

  /// Events the upstream sent from inside a delivery, oldest first. Upstream calls only.
  @usableFromInline
  @exclusivity(unchecked)
  var pending: [Event] = []

  /// Whether the upstream's completion arrived (later values are dropped). Upstream calls only.
  @usableFromInline
  @exclusivity(unchecked)
  var upstreamEnded = false

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
    handOver(self, reportingDetachTo: downstream)
  }

  /// The upstream forgot this subscription: passes the report on.
  @inlinable
  func _upstreamDetached() {
    reportDetach(to: downstream)
  }

  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    if upstreamEnded || terminated.load(ordering: .acquiring) { return .none }
    if delivering {
      pending.append(.value(input))
      return .none
    }
    delivering = true
    var demand = downstream.receive(input)
    if !pending.isEmpty { demand += deliverPending() }
    delivering = false
    return demand
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    if upstreamEnded { return }
    upstreamEnded = true
    lock.withLock { status = .terminated }
    if delivering {
      pending.append(.completion(completion))
      return
    }
    if terminated.exchange(true, ordering: .acquiringAndReleasing) { return }
    downstream.receive(completion: completion)
  }

  /// Delivers the events sent re-entrantly, in order, including those sent while delivering
  /// them. Returns the demand the subscriber returned.
  @usableFromInline
  func deliverPending() -> Subscribers.Demand {
    var demand = Subscribers.Demand.none
    var index = 0
    while index < pending.count, !terminated.load(ordering: .acquiring) {
      switch pending[index] {
      case .value(let value):
        demand += downstream.receive(value)
      case .completion(let completion):
        if !terminated.exchange(true, ordering: .acquiringAndReleasing) {
          downstream.receive(completion: completion)
        }
      }
      index += 1
    }
    pending.removeAll()
    return demand
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
