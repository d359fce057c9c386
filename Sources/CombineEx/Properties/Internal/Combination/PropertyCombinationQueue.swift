/// A first-in first-out queue: an array with a moving head, compacted as it empties, so that
/// appends and pops are amortized O(1).
struct PropertyCombinationQueue<Element> {
  private var storage: [Element?] = []
  private var head = 0

  var isEmpty: Bool { head == storage.count }

  mutating func append(_ element: Element) {
    storage.append(element)
  }

  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head].take()
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}
