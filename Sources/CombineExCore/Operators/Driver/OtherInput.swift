/// What the second input of an `untilOutputFrom` operator does (``OperatorLogic/otherInput``).
package enum OtherInputRole {
  /// `prefix(untilOutputFrom:)`: its first value finishes the operator (after the upstream
  /// value being delivered, if any); its completion changes nothing.
  case stop
  /// `drop(untilOutputFrom:)`: upstream values are dropped until its first value (their demand
  /// is not given back, as in Combine); its completion before that ends the operator the same
  /// way.
  case start
}

/// The subscriber an ``OperatorDriver`` attaches to the second input of an `untilOutputFrom`
/// operator (see ``OperatorDriver/start(upstream:other:)``): it hands the input's events to the
/// driver.
struct OtherInput<Logic: OperatorLogic, Downstream: Subscriber, Input>: Subscriber,
  CustomStringConvertible, CustomCombineIdentifierConvertible
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  typealias Failure = Logic.OtherFailure

  let driver: OperatorDriver<Logic, Downstream>

  var combineIdentifier: CombineIdentifier { CombineIdentifier(driver) }

  var description: String { driver.description }

  func receive(subscription: any Subscription) {
    driver.receiveOther(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    driver.receiveOtherValue()
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    driver.receiveOther(completion: completion)
  }
}
