/// The latest values of a subject that replays several of them (CombineEx's `ReplaySubject`),
/// and where each subscriber that is behind stands in them.
///
/// Values are numbered in the order they were sent; the buffer keeps the last `capacity` of
/// them. A subscriber that is behind (a new one, or one that had no demand when values came)
/// has a *cursor*: the number of the next value it should receive. Values that fell out of the
/// buffer meanwhile are skipped for it, so a subscriber that falls behind receives at most the
/// `capacity` latest values it missed, as a new subscriber does.
///
/// Token holder only (see ``SubjectCore``): values are appended by the thread that holds the
/// delivery token (from the subject's commit, under the core's lock, when it takes the token or
/// sends re-entrantly), and read by the same thread while it delivers.
@usableFromInline
package final class SubjectReplayBuffer<Output> {
  /// How many values are kept.
  @usableFromInline
  let capacity: Int

  /// The kept values, in a ring: the oldest at `oldest`, the others after it in the order they
  /// were sent, wrapping around to the start. It grows to `capacity` values; from then on a new
  /// value takes the oldest one's slot, so an evicted value is released by the append that
  /// evicts it (rule 3), and no slot is ever copied or compacted.
  var ring: [Output] = []
  /// The slot of the oldest kept value (0 until the ring is full).
  var oldest = 0

  /// The number of the oldest kept value.
  var startNumber: UInt64 = 0

  /// The cursors of the subscribers that are behind, by conduit identity.
  var cursors: [ObjectIdentifier: UInt64] = [:]

  @usableFromInline
  package init(capacity: Int) {
    self.capacity = capacity
  }

  /// The number the next value will get.
  var endNumber: UInt64 { startNumber + UInt64(ring.count) }

  /// Whether no value is kept.
  @usableFromInline
  var isEmpty: Bool { ring.isEmpty }

  /// Keeps `value` as the latest, dropping the oldest beyond the capacity.
  ///
  /// - Returns: the value evicted to make room, if any. The caller holds the subject's lock:
  ///   it lets go of the evicted value after unlocking, since its deinit may be user code that
  ///   calls the subject.
  @usableFromInline
  @discardableResult
  package func append(_ value: Output) -> Output? {
    guard capacity > 0 else { return nil }
    guard ring.count == capacity else {
      ring.append(value)
      return nil
    }
    var evicted = value
    swap(&ring[oldest], &evicted)
    oldest = oldest + 1 == capacity ? 0 : oldest + 1
    startNumber += 1
    return evicted
  }

  /// The kept value numbered `number` (between `startNumber` and `endNumber`).
  func value(numbered number: UInt64) -> Output {
    let slot = oldest + Int(number - startNumber)
    return ring[slot < ring.count ? slot : slot - ring.count]
  }

  /// Makes the subscriber behind from the oldest kept value (a new subscriber).
  @usableFromInline
  func startFromOldest(_ conduit: AnyObject) {
    cursors[ObjectIdentifier(conduit)] = startNumber
  }

  /// Makes the subscriber behind from the latest value (it had no demand for it), unless it
  /// is already behind.
  func holdBackLatest(_ conduit: AnyObject) {
    guard !isEmpty else { return }
    let key = ObjectIdentifier(conduit)
    if cursors[key] == nil { cursors[key] = endNumber - 1 }
  }

  /// The next value the subscriber should receive, moving its cursor past it; `nil` when it has
  /// caught up (or is not behind).
  func takeNext(for conduit: AnyObject) -> Output? {
    let key = ObjectIdentifier(conduit)
    guard let cursor = cursors[key] else { return nil }
    let next = max(cursor, startNumber)
    guard next < endNumber else { return nil }
    cursors[key] = next + 1
    return value(numbered: next)
  }

  /// Whether the subscriber has received every kept value it is owed (or is not behind).
  func isCaughtUp(_ conduit: AnyObject) -> Bool {
    guard let cursor = cursors[ObjectIdentifier(conduit)] else { return true }
    return max(cursor, startNumber) >= endNumber
  }

  /// Forgets the subscriber's cursor.
  @usableFromInline
  func forget(_ conduit: AnyObject) {
    cursors[ObjectIdentifier(conduit)] = nil
  }
}
