/// An operator whose `receive(subscriber:)` is inlined into pipelines, and which therefore
/// subscribes its own subscriber to its upstream with `receive(subscriber:)`, not with
/// `subscribe(_:)`: the flag check that `subscribe(_:)` carries made that inlined code large
/// enough that the optimizer stopped inlining it (about 360 instructions per subscription).
///
/// While an `_Introspection` object is enabled, `subscribe(_:)` finds this conformance and
/// calls ``receiveReportingItsSubscriber(subscriber:)`` instead, so the hooks see the
/// operator's own subscriber, as they do in Combine. Operators that are not inlined subscribe
/// their upstream with `subscribe(_:)` and need no conformance.
protocol OperatorReportingItsSubscriber<Output, Failure>: Publisher {
  /// Attaches `subscriber` as `receive(subscriber:)` does, but subscribes the operator's own
  /// subscriber to the upstream with `subscribe(_:)`.
  func receiveReportingItsSubscriber<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure
}

extension Publisher {
  /// `receive(subscriber:)`, or, for an ``OperatorReportingItsSubscriber``, the variant that
  /// reports the operator's own subscriber to the hooks.
  func receiveReportingOperators<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    if let reporting = self as? any OperatorReportingItsSubscriber<Output, Failure> {
      reporting.receiveReportingItsSubscriber(subscriber: subscriber)
    } else {
      receive(subscriber: subscriber)
    }
  }
}
