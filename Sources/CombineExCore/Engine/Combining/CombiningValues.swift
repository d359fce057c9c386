/// What `combineLatest` and `zip` keep of their inputs' values, and how they make an output
/// from them: the part of ``CombiningStateMachine`` that differs between the two operators and
/// between arities.
///
/// Inputs have different value types, so each input stores its values through a function made
/// where its type is known (``CombiningStorage/subscribe(_:at:store:)``); the machine only
/// asks for outputs and for whether the combination is over.
///
/// Combine's operators keep theirs in `LatestValues2` ... `LatestValues4` and `ZipQueues2` ...
/// `ZipQueues4` (generated, with CombineEx's typed aggregate values, from
/// `Tools/Families/CombiningValues.swift.template`). Package-visible so that CombineEx's
/// `Publishers.Aggregate` (any number of inputs, known when a subscriber attaches) runs on the
/// same engine, with ``ZipQueues`` for its array form of `zip`.
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
