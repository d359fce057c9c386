/// A first-in first-out queue: an array with a moving head.
///
/// `popFirst()` is O(1): it clears the slot (so that a dequeued value is released at once) and
/// moves the head; the consumed prefix is dropped when the queue empties or when it makes up
/// most of the array, so appends and pops are amortized O(1) and an emptied queue keeps its
/// capacity (no allocation in steady state).
///
/// Every queue of values in the package is this one (`package`, so that CombineEx and the store
/// use it too): a hand-written copy that read `storage[head]` without clearing the slot kept
/// every value it ever delivered alive for as long as the queue never drained completely (a
/// `zip` input that always had one value waiting, a custom publisher's source one value ahead
/// of its subscriber), which rule 3 forbids.
@usableFromInline
package struct ValueQueue<Element> {
  @inlinable
  package init() {}

  @usableFromInline
  var storage: [Element?] = []
  @usableFromInline
  var head = 0

  /// The number of queued values.
  @inlinable
  package var count: Int { storage.count - head }

  /// Whether the queue holds no value. (`storage` is emptied whenever the head reaches its end,
  /// so an empty queue has empty storage: one load, on the hot paths that check it per value.)
  @inlinable
  package var isEmpty: Bool { storage.isEmpty }

  /// Adds a value at the back.
  @inlinable
  package mutating func append(_ element: Element) {
    storage.append(element)
  }

  /// Removes and returns the value at the front, or `nil` if the queue is empty. The queue
  /// keeps no reference to the value it returns.
  @inlinable
  package mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head].take()
    head += 1
    if head == storage.count {
      // One queued value is the common case (an outbox, a merge); `removeLast` is far cheaper
      // than `removeAll(keepingCapacity:)` there.
      if head == 1 { storage.removeLast() } else { storage.removeAll(keepingCapacity: true) }
      head = 0
    } else if head >= 64, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Removes every value.
  @inlinable
  package mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}

extension ValueQueue: Sendable where Element: Sendable {}
