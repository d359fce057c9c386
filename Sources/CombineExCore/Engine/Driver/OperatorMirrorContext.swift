/// What an ``OperatorDriver`` lends its logic to build the children of its `customMirror`
/// (``OperatorLogic/mirrorChildren(_:_:)``): the parts of a subscription that every operator
/// has, read under the driver's lock when the mirror is asked for (never stored).
@usableFromInline
package struct OperatorMirrorContext {
  /// The downstream, or `nil` once it was released.
  package let downstream: Any
  /// The upstream's subscription, or `nil` before it arrives and after the end.
  package let upstream: Any
  /// Where the operator is: awaiting its subscription, subscribed, or ended.
  package let status: Any
  /// Whether the operator has ended (completed, failed or cancelled).
  package let ended: Bool
}

/// Combine's reducing operators (`reduce`, `count`, `min`, `contains`, `first`, `last`, ...)
/// all show the same four children: the downstream, the result so far, the initial result and
/// the status.
extension ReducingLogic {
  @usableFromInline
  func mirrorChildren(_ state: State, _ context: OperatorMirrorContext) -> [Mirror.Child] {
    [
      ("downstream", context.downstream),
      ("result", result(state) as Any),
      ("initial", initialState),
      ("status", context.status),
    ]
  }
}
