/// A first-in first-out queue: an array with a moving head.
///
/// `popFirst()` is O(1): it clears the slot (so that a dequeued value is released at once) and
/// moves the head; the consumed prefix is dropped when the queue empties or when it makes up
/// most of the array, so appends and pops are amortized O(1) and an emptied queue keeps its
/// capacity (no allocation in steady state).
struct ValueQueue<Element> {
  private var storage: [Element?] = []
  private var head = 0

  /// The number of queued values.
  var count: Int { storage.count - head }

  /// Whether the queue holds no value.
  var isEmpty: Bool { head == storage.count }

  /// Adds a value at the back.
  mutating func append(_ element: Element) {
    storage.append(element)
  }

  /// Removes and returns the value at the front, or `nil` if the queue is empty.
  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head].take()
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Removes every value.
  mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}
