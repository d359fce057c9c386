import Synchronization

/// The atomic state word of a source that produces values on demand (`Publishers.Sequence`,
/// ``Record``): outstanding demand plus two flags, so that the production loop reads all it
/// needs with one plain load per value and never takes a lock.
///
/// - bits 0...61: outstanding demand; all ones means `.unlimited`.
/// - bit 62 (`draining`): some thread owns the production loop (and with it the iterator and
///   the downstream). Whoever sets it runs the loop; everyone else only adds demand.
/// - bit 63 (`cancelled`): cancelled or finished. Never cleared.
///
/// Re-entrant `request` calls from inside `receive(_:)` find `draining` set and only add
/// demand, so the loop delivers iteratively instead of recursing.
///
/// ## Delivering from specialized code
/// As in Combine, values go out from inside the `request(_:)` that asks for them, even one made
/// from inside `receive(subscription:)`. That call arrives through `any Subscription`, in the
/// generic code of the subscription class; the subscriptions therefore run their loop through a
/// closure without captures made in the publisher's (specialized) `receive(subscriber:)`, so that
/// the loop runs as code specialized for the whole pipeline. This is what makes synchronous
/// pipelines fast.
@usableFromInline
struct DrainState: ~Copyable {
  @usableFromInline
  let word = Atomic<UInt>(0)

  @usableFromInline
  static var demandMask: UInt { (1 << 62) - 1 }

  @usableFromInline
  static var draining: UInt { 1 << 62 }

  @usableFromInline
  static var cancelled: UInt { 1 << 63 }

  @inlinable
  init() {}

  /// Adds demand; returns `true` if the caller became the drainer and must run the loop.
  @inlinable
  func add(_ demand: Subscribers.Demand) -> Bool {
    let added = SubjectConduitState.bits(for: demand)
    var current = word.load(ordering: .relaxed)
    while true {
      if current & Self.cancelled != 0 { return false }
      let updated = SubjectConduitState.adding(added, to: current) | Self.draining
      let (exchanged, original) = word.compareExchange(
        expected: current, desired: updated, ordering: .acquiringAndReleasing)
      if exchanged { return current & Self.draining == 0 }
      current = original
    }
  }

  /// The drainer's view of the state: `nil` if cancelled, otherwise the outstanding demand bits.
  @inlinable
  func demandIfLive() -> UInt? {
    let current = word.load(ordering: .acquiring)
    return current & Self.cancelled != 0 ? nil : current & Self.demandMask
  }

  /// Consumes one unit of finite demand (drainer only; other threads only add).
  @inlinable
  func consumeOne(of demand: UInt) {
    if demand != Self.demandMask {
      word.subtract(1, ordering: .relaxed)
    }
  }

  /// Gives up the drainer role when demand ran out; returns `false` if demand arrived (or the
  /// subscription was cancelled) meanwhile, in which case the caller keeps draining.
  @inlinable
  func stopDraining() -> Bool {
    var current = word.load(ordering: .relaxed)
    while current & Self.demandMask == 0, current & Self.cancelled == 0 {
      let (exchanged, original) = word.compareExchange(
        expected: current, desired: current & ~Self.draining, ordering: .acquiringAndReleasing)
      if exchanged { return true }
      current = original
    }
    return false
  }

  /// Takes the drainer role to read the state the drainer owns (a description, a mirror), if
  /// nobody holds it and the subscription is live. The caller gives it back with
  /// ``stopDraining()``, and runs the loop itself if that returns `false`.
  @inlinable
  func borrow() -> Bool {
    var current = word.load(ordering: .relaxed)
    while current & (Self.draining | Self.cancelled) == 0 {
      let (exchanged, original) = word.compareExchange(
        expected: current, desired: current | Self.draining, ordering: .acquiringAndReleasing)
      if exchanged { return true }
      current = original
    }
    return false
  }

  /// Whether the subscription was cancelled or finished.
  @inlinable
  var isEnded: Bool { word.load(ordering: .acquiring) & Self.cancelled != 0 }

  /// Marks the subscription cancelled (or finished). Returns `true` if the caller must clean up:
  /// nobody was draining, so the caller now owns the state. A drainer cleans up itself when it
  /// next looks at the state.
  @inlinable
  func cancel() -> Bool {
    word.bitwiseOr(Self.cancelled | Self.draining, ordering: .acquiringAndReleasing).oldValue
      & (Self.cancelled | Self.draining) == 0
  }

  /// Marks the subscription finished from inside the loop (the drainer already owns the state).
  @inlinable
  func finish() {
    word.bitwiseOr(Self.cancelled, ordering: .acquiringAndReleasing)
  }
}
