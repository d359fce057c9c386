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

  /// The kept values, oldest first from `head`.
  var storage: [Output] = []
  var head = 0

  /// The number of the oldest kept value.
  var startNumber: UInt64 = 0

  /// The cursors of the subscribers that are behind, by conduit identity.
  var cursors: [ObjectIdentifier: UInt64] = [:]

  @usableFromInline
  package init(capacity: Int) {
    self.capacity = capacity
  }

  /// The number the next value will get.
  var endNumber: UInt64 { startNumber + UInt64(storage.count - head) }

  /// Whether no value is kept.
  @usableFromInline
  var isEmpty: Bool { storage.count == head }

  /// Keeps `value` as the latest, dropping the oldest beyond the capacity.
  @usableFromInline
  package func append(_ value: Output) {
    guard capacity > 0 else { return }
    storage.append(value)
    if storage.count - head > capacity {
      head += 1
      startNumber += 1
      if head >= 64, head * 2 >= storage.count {
        storage.removeFirst(head)
        head = 0
      }
    }
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
    return storage[head + Int(next - startNumber)]
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
