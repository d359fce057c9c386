/// `zip` of any number of inputs of one value type, the number known when a subscriber
/// attaches: each input's values not yet zipped, oldest first, and arrays for outputs.
///
/// The array form of ``ZipQueues2`` ... ``ZipQueues4``, for CombineExCore's package users:
/// CombineEx's `Publishers.Aggregate` keeps the values of its array form of `zip` (and of its
/// `componentBuilder`'s inputs, as `Any`) here. It keeps that aggregate's demand, not Combine's
/// `zip`'s (``CombiningValues/followsZipDemand`` is `false`).
@usableFromInline
package struct ZipQueues<Element>: CombiningValues {
  @usableFromInline
  package let inputCount: Int
  /// Each input's waiting values, oldest first. A zipped value leaves its queue (and is
  /// released) as it goes out, even while later values of its input wait.
  @usableFromInline
  var queues: [ValueQueue<Element>]
  /// How many inputs have no value waiting.
  @usableFromInline
  var empty: Int

  @inlinable
  package static var emitsOnlyOnArrival: Bool { false }

  /// Storage for no input (the protocol's requirement; the aggregate uses
  /// ``init(inputCount:)``).
  @inlinable
  package init() { self.init(inputCount: 0) }

  /// Empty storage for `inputCount` inputs.
  @inlinable
  package init(inputCount: Int) {
    self.inputCount = inputCount
    queues = Array(repeating: ValueQueue(), count: inputCount)
    empty = inputCount
  }

  /// Puts a value of input `index` at the back of its queue.
  @inlinable
  package mutating func store(_ value: Element, at index: Int) {
    if queues[index].isEmpty { empty -= 1 }
    queues[index].append(value)
  }

  @inlinable
  package mutating func takeOutput() -> [Element]? {
    guard empty == 0, inputCount > 0 else { return nil }
    var output: [Element] = []
    output.reserveCapacity(inputCount)
    for index in 0..<inputCount {
      // `empty == 0`: every queue has a value.
      output.append(queues[index].popFirst()!)
      if queues[index].isEmpty { empty += 1 }
    }
    return output
  }

  /// Over once a finished input has no value left to zip.
  @inlinable
  package func isExhausted(finished: [Bool]) -> Bool {
    for index in finished.indices where finished[index] && queues[index].isEmpty {
      return true
    }
    return false
  }

  @inlinable
  package mutating func removeAll() { self = Self(inputCount: inputCount) }
}
