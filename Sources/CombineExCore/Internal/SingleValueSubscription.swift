import Synchronization

/// The subscription of publishers that emit one value and finish (``Just``,
/// `Result.Publisher`, `Optional.Publisher`): the value goes out on the first demand, followed
/// by `.finished`; cancel before that delivers nothing.
///
/// Like ``DrainState``, it starts owned by the publisher's `receive(subscriber:)`, which calls
/// ``start()`` after `receive(subscription:)` returns, so that the common case (demand requested
/// during subscription) delivers from code specialized for the pipeline.
///
/// The class is not generic: the subscriber and the value live in the context of the
/// `delivery` closure, created in specialized code. A generic class's deinitializer is never
/// specialized, and destroying an `Optional<Downstream>` field there looked up the optional's
/// metadata in the runtime's cache on every subscription (about a thousand instructions, a
/// third of a `Just(x).map.sink` and cancel).
@usableFromInline
final class SingleValueSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
  // @unchecked Sendable: `phase` decides, atomically, the one thread that may touch `delivery`
  // after initialization, so its accesses need no runtime exclusivity checks.
  /// Where the subscription is in its life; the raw values of an atomic.
  @usableFromInline
  enum Phase: UInt8 {
    /// Inside `receive(subscriber:)`, before ``start()``; no demand yet.
    case starting
    /// Inside `receive(subscriber:)`, and demand arrived: ``start()`` delivers.
    case startingWithDemand
    /// Started, waiting for demand.
    case waiting
    /// Delivered or cancelled.
    case done
    /// Delivering the value: a cancel now (from inside `receive(_:)`, or from another thread)
    /// only moves to `done`, which keeps the completion from being sent.
    case delivering
  }

  @usableFromInline
  let phase = Atomic<UInt8>(Phase.starting.rawValue)

  /// Sends the value to the subscriber, then `.finished` unless it cancelled meanwhile; holds
  /// the subscriber and the value until it runs or the subscription is cancelled. Called with
  /// `false` after a cancel, it only tells the subscriber that no delivery will run (see
  /// `handOver(_:reportingDetachTo:)`, with which the publishers hand this
  /// subscription over).
  @usableFromInline
  @exclusivity(unchecked)
  var delivery: ((SingleValueSubscription, _ delivers: Bool) -> Void)?

  /// Its `description`, as Combine's: "Just", "Optional" or "Once" (`Result.Publisher`).
  @usableFromInline
  let name: StaticString

  @inlinable
  init<Downstream: Subscriber>(
    downstream: Downstream, value: Downstream.Input, name: StaticString = "Just"
  ) {
    self.name = name
    delivery = { subscription, delivers in
      guard delivers else { return reportDetach(to: downstream) }
      _ = downstream.receive(value)
      if subscription.endDelivery() {
        downstream.receive(completion: .finished)
      } else {
        reportDetach(to: downstream)
      }
    }
  }

  @usableFromInline
  var description: String { "\(name)" }

  /// Ends the start phase: delivers if demand arrived meanwhile, cleans up if cancelled.
  @inlinable
  func start() {
    let (exchanged, original) = phase.compareExchange(
      expected: Phase.starting.rawValue, desired: Phase.waiting.rawValue,
      ordering: .acquiringAndReleasing)
    if exchanged { return }
    if original == Phase.startingWithDemand.rawValue {
      phase.store(Phase.delivering.rawValue, ordering: .releasing)
      deliver()
    } else {
      detach()
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    // As in Combine, where these publishers stop the program on a request of zero.
    checkAPI(
      demand != .none, "\(name) was asked for zero values. A request must be for one or more.")
    var current = phase.load(ordering: .acquiring)
    while true {
      let next: Phase
      switch Phase(rawValue: current) {
      case .starting: next = .startingWithDemand
      case .waiting: next = .delivering
      default: return
      }
      let (exchanged, original) = phase.compareExchange(
        expected: current, desired: next.rawValue, ordering: .acquiringAndReleasing)
      if exchanged {
        if next == .delivering { deliver() }
        return
      }
      current = original
    }
  }

  @inlinable
  func cancel() {
    let previous = phase.exchange(Phase.done.rawValue, ordering: .acquiringAndReleasing)
    // While starting, the starter owns `delivery` and cleans up in `start()`; while
    // delivering, `deliver()` already took it, and `endDelivery()` sees the cancel.
    if previous == Phase.waiting.rawValue { detach() }
  }

  /// After a cancel, with no delivery running: tells the subscriber, and lets go of it.
  @inlinable
  func detach() {
    let delivery = self.delivery
    self.delivery = nil
    delivery?(self, false)
  }

  /// Runs the delivery once, releasing the subscriber and the value when it returns (rule 2:
  /// nothing after cancel, even a cancel made from inside `receive(_:)`).
  @inlinable
  func deliver() {
    let delivery = self.delivery
    self.delivery = nil
    delivery?(self, true)
  }

  /// Called after the value was delivered: whether the completion follows (no cancel came).
  @inlinable
  func endDelivery() -> Bool {
    phase.exchange(Phase.done.rawValue, ordering: .acquiringAndReleasing)
      == Phase.delivering.rawValue
  }
}
