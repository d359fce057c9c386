import CombineExCore

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

  @inlinable
  init(_ initialValue: Output) {
    currentValue = initialValue
    core = SubjectCore(.property, currentValue: initialValue)
  }

  /// Stores `value` and publishes it (ignored once finished).
  @inlinable
  func send(_ value: Output) {
    var replaced = value  // released after the lock (its deinit may read `value`)
    core.perform(.value(value)) { _ in
      guard !isFinished else { return false }
      swap(&currentValue, &replaced)
      return true
    }
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
