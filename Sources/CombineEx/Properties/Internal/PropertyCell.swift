import CombineExCore
import Synchronization

/// The value, the `finished` flag and the subscribers of a ``PropertyStorage``: the part a
/// ``PropertyRelay`` feeds on every value.
///
/// A separate object so that the relay can hold it strongly: the relay used to refer to the
/// storage weakly, and a weakly referenced object keeps its reference counts in a side table,
/// where every retain and release takes the slow path (22% of Benchmarks' j5). Nothing refers
/// to a cell weakly. Holding the cell does not keep the property alive: the cell has no
/// subscription to its sources and owns no relay. Its core keeps the ``PropertyStorage`` (the
/// core's `owner`) while subscribers are attached, as a subject's core keeps its subject: the
/// storage then lives as long as its subscribers, and the cell as long as the storage or the
/// relay.
@usableFromInline
final class PropertyCell<Output> {
  @usableFromInline
  let core: SubjectCore<Output, Never>

  /// The value as of the last committed set. Guarded by `core.lock`. (Unchecked exclusivity,
  /// as `MutableProperty`'s: the lock serializes every access.)
  @usableFromInline
  @exclusivity(unchecked)
  var currentValue: Output

  /// Whether the followed publisher finished. Guarded by `core.lock`.
  @usableFromInline
  @exclusivity(unchecked)
  var isFinished = false

  /// Whether a subscriber ever attached. Set once, under `core.lock`, by the first attach
  /// (``markObserved()``), never cleared. Until then a value is only stored, under the lock:
  /// the core has nobody to deliver it to, and the first attach brings the core's replayed
  /// value up to date before the core hands it out. (A derived property that is only read,
  /// never observed, then costs one lock round trip per change, not the core's delivery token
  /// too: two compare-and-swaps and the event's handling, about 60 instructions of
  /// Benchmarks' j5.)
  @usableFromInline
  let isObserved = Atomic<Bool>(false)

  @inlinable
  init(_ initialValue: Output) {
    currentValue = initialValue
    core = SubjectCore(.property, currentValue: initialValue)
    // Nothing to replay until the first attach (``markObserved()``): the values stored until
    // then bypass the core, which would otherwise keep the first one alive.
    core.replayValue = nil
  }

  /// Stores `value` and publishes it (ignored once finished).
  @inlinable
  func send(_ value: Output) {
    var replaced = value  // released after the lock (its deinit may read `value`)
    if !isObserved.load(ordering: .acquiring) {
      // Nobody to deliver to: store the value only, unless the first subscriber attached
      // meanwhile (checked again under the lock, where the attach sets it).
      let stored = core.lock.withLock { () -> Bool in
        guard !isObserved.load(ordering: .relaxed) else { return false }
        if !isFinished { swap(&currentValue, &replaced) }
        return true
      }
      if stored { return }
    }
    core.perform(.value(value)) { _ in
      guard !isFinished else { return false }
      swap(&currentValue, &replaced)
      return true
    }
  }

  /// Called by an attach with `core.lock` and the core's delivery token held (in the commit of
  /// the attach event): the first one marks the cell observed, from then on every value goes
  /// through the core, and gives the core the value stored meanwhile to replay.
  @inlinable
  func markObserved() {
    guard !isObserved.load(ordering: .relaxed) else { return }
    core.replayValue = currentValue
    isObserved.store(true, ordering: .releasing)
  }

  /// Finishes every subscriber; the value stays.
  @inlinable
  func finish() {
    core.perform(.completion(.finished)) { _ in
      guard !isFinished else { return false }
      isFinished = true
      return true
    }
  }
}

extension PropertyCell: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: `currentValue` and `isFinished` are guarded by `core.lock`, and
  // delivery is serialized by `core`'s token.
}
