import CombineExCore

/// What a fixed-arity `combineLatest` of CombineEx (``Publishers/Aggregate`` of 2 to 10
/// publishers) keeps of its inputs' values: the latest value of each, in a stored property of
/// its own type until every input has one, then in the tuple the outputs share
/// (``AggregateBoxedTuple``). A value is stored and an output made without boxing a value as
/// `Any`, building an array or casting (`AggregateLatest2` ... `AggregateLatest10`, generated from
/// `Tools/Families/CombiningValues.swift.template`).
@usableFromInline
protocol AggregateLatestTuple: CombiningValues where Output == AggregateBoxedTuple<Tuple> {
  /// The outputs' values: one per input, in order.
  associatedtype Tuple

  /// The latest value of every input, once each has one (`nil` until then; the inputs' own
  /// properties are empty afterwards).
  var latest: AggregateBoxedTuple<Tuple>? { get set }

  /// The value of every input, if each has one (before ``latest`` is made).
  func completeTuple() -> Tuple?

  /// Whether input `index` has published (before ``latest`` is made).
  func hasValue(at index: Int) -> Bool
}

extension AggregateLatestTuple {
  @inlinable
  static var emitsOnlyOnArrival: Bool { true }

  /// Stores a value of one input: with `slot` (into the input's own property) until every input
  /// has a value, then with `write` (into the shared tuple).
  @inlinable
  mutating func store(_ slot: (inout Self) -> Void, orUpdate write: (inout Tuple) -> Void) {
    guard latest == nil else {
      latest!.update(write)
      return
    }
    slot(&self)
    if let tuple = completeTuple() {
      self = Self()
      latest = AggregateBoxedTuple(tuple)
    }
  }

  @inlinable
  func takeOutput() -> Output? { latest }

  /// Over once every input finished, or once an input finished without a value (no output can
  /// be made then; the original CombineEx ends there too).
  @inlinable
  func isExhausted(finished: [Bool]) -> Bool {
    guard latest == nil else { return !finished.contains(false) }
    var allFinished = true
    for index in finished.indices {
      if finished[index] {
        if !hasValue(at: index) { return true }
      } else {
        allFinished = false
      }
    }
    return allFinished
  }

  @inlinable
  mutating func removeAll() { self = Self() }
}

/// What a fixed-arity `zip` of CombineEx (``Publishers/Aggregate`` of 5 to 10 publishers)
/// keeps of its inputs' values: a queue of each input's values not yet zipped, each of its own
/// type; its outputs are boxed (``AggregateBoxedTuple``). `AggregateZip5` ... `AggregateZip10`,
/// generated from `Tools/Families/CombiningValues.swift.template`.
@usableFromInline
protocol AggregateZipTuple: CombiningValues where Output == AggregateBoxedTuple<Tuple> {
  /// The outputs' values: one per input, in order.
  associatedtype Tuple

  /// Whether input `index` has no value waiting.
  func isEmpty(at index: Int) -> Bool
}

extension AggregateZipTuple {
  @inlinable
  static var emitsOnlyOnArrival: Bool { false }

  /// Over once a finished input has no value left to zip.
  @inlinable
  func isExhausted(finished: [Bool]) -> Bool {
    for index in finished.indices where finished[index] && isEmpty(at: index) {
      return true
    }
    return false
  }

  @inlinable
  mutating func removeAll() { self = Self() }
}
