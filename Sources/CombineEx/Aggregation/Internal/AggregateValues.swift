import CombineExCore

/// What a ``Publishers/Aggregate`` keeps of its inputs' values when their number is known only
/// when a subscriber attaches (the array forms, and the `componentBuilder`'s inputs, whose
/// values it keeps as `Any`): the core's ``CombiningValues``, with one element type for every
/// input and arrays for outputs. `zip`'s are the core's (``ZipQueues``); `combineLatest`'s are
/// ``AggregateLatestValues``, which the core has no use for (Combine's `combineLatest` has no
/// array form).
@usableFromInline
protocol AggregateValues<Element>: CombiningValues where Output == [Element] {
  /// The type of every input's values.
  associatedtype Element

  /// Empty storage for `inputCount` inputs.
  init(inputCount: Int)

  /// Puts a value of input `index` in place.
  mutating func store(_ value: Element, at index: Int)
}

/// `combineLatest`: the latest value of each input.
///
/// Once every input has a value, the latest values are kept as the array that the outputs are:
/// an output shares its storage, and a new value copies it only if the subscriber still holds
/// the previous output, so a subscriber that does not keep its arrays costs no array per value.
@usableFromInline
struct AggregateLatestValues<Element>: AggregateValues {
  @usableFromInline
  let inputCount: Int
  /// Each input's latest value, while some input has none yet (empty afterwards).
  @usableFromInline
  var pending: [Element?]
  /// The latest value of every input, once all have one (empty until then).
  @usableFromInline
  var latest: [Element] = []
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
    pending = Array(repeating: nil, count: inputCount)
    missing = inputCount
  }

  @inlinable
  mutating func store(_ value: Element, at index: Int) {
    guard missing > 0 else {
      latest[index] = value
      return
    }
    if case .none = pending[index] { missing -= 1 }
    pending[index] = value
    if missing == 0 {
      // `pending` holds a value for every input now.
      latest = pending.map { $0! }
      pending = []
    }
  }

  @inlinable
  func takeOutput() -> [Element]? {
    missing == 0 ? latest : nil
  }

  /// Over once every input finished, or once an input finished without a value (no output can
  /// be made then; the original CombineEx ends there too).
  @inlinable
  func isExhausted(finished: [Bool]) -> Bool {
    var allFinished = true
    for index in finished.indices {
      if finished[index] {
        if missing > 0, case .none = pending[index] { return true }
      } else {
        allFinished = false
      }
    }
    return allFinished
  }

  @inlinable
  mutating func removeAll() { self = Self(inputCount: inputCount) }
}

/// `zip`: the core's array form, ``ZipQueues``.
extension ZipQueues: AggregateValues {}
