import Synchronization

/// The subscription of publishers that emit one value and finish (``Just``,
/// `Result.Publisher`, `Optional.Publisher`): the value goes out on the first demand, followed
/// by `.finished`; cancel before that delivers nothing.
///
/// Like ``DrainState``, it starts owned by the publisher's `receive(subscriber:)`, which calls
/// ``start()`` after `receive(subscription:)` returns, so that the common case (demand requested
/// during subscription) delivers from code specialized for the pipeline.
@usableFromInline
final class SingleValueSubscription<Downstream: Subscriber>: Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `phase` decides, atomically, the one thread that may touch `downstream`
  // and `value` after initialization, so their accesses need no runtime exclusivity checks.
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

  @usableFromInline
  @exclusivity(unchecked)
  var downstream: Downstream?

  @usableFromInline
  @exclusivity(unchecked)
  var value: Downstream.Input?

  @inlinable
  init(downstream: Downstream, value: Downstream.Input) {
    self.downstream = downstream
    self.value = value
  }

  @usableFromInline
  var description: String { "Just" }

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
      cleanUp()
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    guard demand != .none else { return }
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
    // While starting, the starter owns the fields and cleans up in `start()`; while
    // delivering, `deliver()` does, and sees the cancel before sending the completion.
    if previous == Phase.waiting.rawValue { cleanUp() }
  }

  /// Sends the value, then `.finished` unless the subscriber cancelled meanwhile (rule 2:
  /// nothing after cancel, even a cancel made from inside `receive(_:)`).
  @inlinable
  func deliver() {
    let downstream = self.downstream
    let value = self.value
    cleanUp()
    guard let downstream, let value else { return }
    _ = downstream.receive(value)
    let previous = phase.exchange(Phase.done.rawValue, ordering: .acquiringAndReleasing)
    if previous == Phase.delivering.rawValue {
      downstream.receive(completion: .finished)
    }
  }

  @inlinable
  func cleanUp() {
    downstream = nil
    value = nil
  }
}
