import CombineExCore

/// What a ``Publishers/Aggregate`` keeps of its inputs' values: the core's ``CombiningValues``
/// for a number of inputs known only when a subscriber attaches, with the values type-erased
/// (the aggregation block casts them back).
@usableFromInline
protocol AggregateValues: CombiningValues where Output == [Any] {
  /// Empty storage for `inputCount` inputs.
  init(inputCount: Int)

  /// Puts a value of input `index` in place.
  mutating func store(_ value: Any, at index: Int)
}

/// `combineLatest`: the latest value of each input.
@usableFromInline
struct AggregateLatestValues: AggregateValues {
  @usableFromInline
  let inputCount: Int
  @usableFromInline
  var latest: [Any]
  @usableFromInline
  var hasValue: [Bool]
  /// How many inputs have not published yet.
  @usableFromInline
  var missing: Int

  @inlinable
  static var emitsOnlyOnArrival: Bool { true }

  @inlinable
  init() { self.init(inputCount: 0) }

  @inlinable
  init(inputCount: Int) {
    self.inputCount = inputCount
    latest = Array(repeating: (), count: inputCount)
    hasValue = Array(repeating: false, count: inputCount)
    missing = inputCount
  }

  @inlinable
  mutating func store(_ value: Any, at index: Int) {
    if !hasValue[index] {
      hasValue[index] = true
      missing -= 1
    }
    latest[index] = value
  }

  @inlinable
  func takeOutput() -> [Any]? {
    missing == 0 ? latest : nil
  }

  /// Over once every input finished, or once an input finished without a value (no output can
  /// be made then; the original CombineEx ends there too).
  @inlinable
  func isExhausted(finished: [Bool]) -> Bool {
    var allFinished = true
    for index in finished.indices {
      if finished[index] {
        if !hasValue[index] { return true }
      } else {
        allFinished = false
      }
    }
    return allFinished
  }

  @inlinable
  mutating func removeAll() { self = Self(inputCount: inputCount) }
}

/// `zip`: the values of each input not yet zipped, oldest first.
@usableFromInline
struct AggregateZipQueues: AggregateValues {
  @usableFromInline
  let inputCount: Int
  /// Each input's waiting values, oldest first. A zipped value leaves its queue (and is
  /// released) as it goes out, even while later values of its input wait.
  @usableFromInline
  var queues: [ValueQueue<Any>]
  /// How many inputs have no value waiting.
  @usableFromInline
  var empty: Int

  @inlinable
  static var emitsOnlyOnArrival: Bool { false }

  @inlinable
  init() { self.init(inputCount: 0) }

  @inlinable
  init(inputCount: Int) {
    self.inputCount = inputCount
    queues = Array(repeating: ValueQueue(), count: inputCount)
    empty = inputCount
  }

  @inlinable
  mutating func store(_ value: Any, at index: Int) {
    if queues[index].isEmpty { empty -= 1 }
    queues[index].append(value)
  }

  @inlinable
  mutating func takeOutput() -> [Any]? {
    guard empty == 0, inputCount > 0 else { return nil }
    var output: [Any] = []
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
  func isExhausted(finished: [Bool]) -> Bool {
    for index in finished.indices where finished[index] && queues[index].isEmpty {
      return true
    }
    return false
  }

  @inlinable
  mutating func removeAll() { self = Self(inputCount: inputCount) }
}
