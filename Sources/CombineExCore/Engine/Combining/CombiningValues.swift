/// What `combineLatest` and `zip` keep of their inputs' values, and how they make an output
/// from them: the part of ``CombiningStateMachine`` that differs between the two operators and
/// between arities.
///
/// Inputs have different value types, so each input stores its values through a function made
/// where its type is known (``CombiningStorage/subscribe(_:at:store:)``); the machine only
/// asks for outputs and for whether the combination is over.
///
/// Package-visible so that CombineEx's `Publishers.Aggregate` (any number of inputs, known when
/// a subscriber attaches) runs on the same engine.
@usableFromInline
package protocol CombiningValues {
  /// The combined value: a tuple of one value per input.
  associatedtype Output

  /// The number of inputs (fixed by the type for Combine's operators; set per subscription
  /// for an aggregate).
  var inputCount: Int { get }

  /// Whether outputs are made only when a value arrives (`combineLatest`: a value that arrives
  /// without demand is not delivered later), rather than whenever there is demand and a
  /// complete tuple (`zip`).
  static var emitsOnlyOnArrival: Bool { get }

  /// Whether the combination follows Combine's `zip` in its demand (default `false`): requests
  /// after an unlimited one still reach the inputs; demand the downstream asks for while an input's value is being delivered (from
  /// inside `receive`, or returned by it) is returned to that input from its `receive` rather
  /// than requested from it; and an input's failure also cancels that input's subscription.
  static var followsZipDemand: Bool { get }

  /// Empty storage.
  init()

  /// The next output, if the inputs' values make one (`combineLatest`: a snapshot of the latest
  /// values; `zip`: the oldest value of every input, removed).
  mutating func takeOutput() -> Output?

  /// Whether no output can ever be made again, given which inputs finished
  /// (`combineLatest`: every input finished; `zip`: a finished input has no values left).
  func isExhausted(finished: [Bool]) -> Bool

  /// Forgets every value (the combination ended).
  mutating func removeAll()
}

extension CombiningValues {
  /// `false`: see the requirement.
  @inlinable
  package static var followsZipDemand: Bool { false }
}

// MARK: combineLatest

/// The latest value of each of two inputs (``Publishers/CombineLatest``).
@usableFromInline
struct LatestValues2<A, B>: CombiningValues {
  @inlinable
  init() {}

  @usableFromInline
  var a: A?
  @usableFromInline
  var b: B?

  @inlinable
  var inputCount: Int { 2 }
  @inlinable
  static var emitsOnlyOnArrival: Bool { true }

  @inlinable
  func takeOutput() -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
  }

  @inlinable
  func isExhausted(finished: [Bool]) -> Bool { !finished.contains(false) }

  @inlinable
  mutating func removeAll() { self = Self() }
}

/// The latest value of each of three inputs (``Publishers/CombineLatest3``).
@usableFromInline
struct LatestValues3<A, B, C>: CombiningValues {
  @inlinable
  init() {}

  @usableFromInline
  var a: A?
  @usableFromInline
  var b: B?
  @usableFromInline
  var c: C?

  @inlinable
  var inputCount: Int { 3 }
  @inlinable
  static var emitsOnlyOnArrival: Bool { true }

  @inlinable
  func takeOutput() -> (A, B, C)? {
    guard let a, let b, let c else { return nil }
    return (a, b, c)
  }

  @inlinable
  func isExhausted(finished: [Bool]) -> Bool { !finished.contains(false) }

  @inlinable
  mutating func removeAll() { self = Self() }
}

/// The latest value of each of four inputs (``Publishers/CombineLatest4``).
@usableFromInline
struct LatestValues4<A, B, C, D>: CombiningValues {
  @inlinable
  init() {}

  @usableFromInline
  var a: A?
  @usableFromInline
  var b: B?
  @usableFromInline
  var c: C?
  @usableFromInline
  var d: D?

  @inlinable
  var inputCount: Int { 4 }
  @inlinable
  static var emitsOnlyOnArrival: Bool { true }

  @inlinable
  func takeOutput() -> (A, B, C, D)? {
    guard let a, let b, let c, let d else { return nil }
    return (a, b, c, d)
  }

  @inlinable
  func isExhausted(finished: [Bool]) -> Bool { !finished.contains(false) }

  @inlinable
  mutating func removeAll() { self = Self() }
}

// MARK: zip

/// The values of each of two inputs not yet paired (``Publishers/Zip``).
@usableFromInline
struct ZipQueues2<A, B>: CombiningValues {
  @inlinable
  init() {}

  @usableFromInline
  var a = ValueQueue<A>()
  @usableFromInline
  var b = ValueQueue<B>()

  @inlinable
  var inputCount: Int { 2 }
  @inlinable
  static var emitsOnlyOnArrival: Bool { false }
  @inlinable
  static var followsZipDemand: Bool { true }

  @inlinable
  mutating func takeOutput() -> (A, B)? {
    guard !a.isEmpty, !b.isEmpty, let a = a.popFirst(), let b = b.popFirst() else { return nil }
    return (a, b)
  }

  @inlinable
  func isExhausted(finished: [Bool]) -> Bool {
    (finished[0] && a.isEmpty) || (finished[1] && b.isEmpty)
  }

  @inlinable
  mutating func removeAll() { self = Self() }
}

/// The values of each of three inputs not yet zipped (``Publishers/Zip3``).
@usableFromInline
struct ZipQueues3<A, B, C>: CombiningValues {
  @inlinable
  init() {}

  @usableFromInline
  var a = ValueQueue<A>()
  @usableFromInline
  var b = ValueQueue<B>()
  @usableFromInline
  var c = ValueQueue<C>()

  @inlinable
  var inputCount: Int { 3 }
  @inlinable
  static var emitsOnlyOnArrival: Bool { false }
  @inlinable
  static var followsZipDemand: Bool { true }

  @inlinable
  mutating func takeOutput() -> (A, B, C)? {
    guard !a.isEmpty, !b.isEmpty, !c.isEmpty,
      let a = a.popFirst(), let b = b.popFirst(), let c = c.popFirst()
    else { return nil }
    return (a, b, c)
  }

  @inlinable
  func isExhausted(finished: [Bool]) -> Bool {
    (finished[0] && a.isEmpty) || (finished[1] && b.isEmpty) || (finished[2] && c.isEmpty)
  }

  @inlinable
  mutating func removeAll() { self = Self() }
}

/// The values of each of four inputs not yet zipped (``Publishers/Zip4``).
@usableFromInline
struct ZipQueues4<A, B, C, D>: CombiningValues {
  @inlinable
  init() {}

  @usableFromInline
  var a = ValueQueue<A>()
  @usableFromInline
  var b = ValueQueue<B>()
  @usableFromInline
  var c = ValueQueue<C>()
  @usableFromInline
  var d = ValueQueue<D>()

  @inlinable
  var inputCount: Int { 4 }
  @inlinable
  static var emitsOnlyOnArrival: Bool { false }
  @inlinable
  static var followsZipDemand: Bool { true }

  @inlinable
  mutating func takeOutput() -> (A, B, C, D)? {
    guard !a.isEmpty, !b.isEmpty, !c.isEmpty, !d.isEmpty,
      let a = a.popFirst(), let b = b.popFirst(), let c = c.popFirst(), let d = d.popFirst()
    else { return nil }
    return (a, b, c, d)
  }

  @inlinable
  func isExhausted(finished: [Bool]) -> Bool {
    (finished[0] && a.isEmpty) || (finished[1] && b.isEmpty) || (finished[2] && c.isEmpty)
      || (finished[3] && d.isEmpty)
  }

  @inlinable
  mutating func removeAll() { self = Self() }
}
