/// The ``OperatorLogic`` of an operator that consumes the whole upstream and publishes at most
/// one value at the end (`reduce`, `count`, `collect()`, `min`, `contains`, `first(where:)`,
/// `last`, ...): the defaults below make it one.
///
/// Such an operator asks the upstream for everything at once (``initialDemand`` is
/// `.unlimited`); the downstream's demand only governs the one final value, so it is tracked
/// (``demandTracking``) and never passed on. Each value returns ``OperatorStep/consume`` (keep
/// going), ``OperatorStep/finish(publishing:)`` (the result is known early: `contains`,
/// `first(where:)`) or ``OperatorStep/fail(_:)``. When the upstream finishes, ``result(_:)`` is
/// published as soon as the downstream has asked for it, then `.finished`; a failure is passed
/// on at once.
@usableFromInline
protocol ReducingLogic: OperatorLogic {
  /// The value to publish when the upstream finishes (`nil` publishes nothing).
  func result(_ state: State) -> Output?
}

extension ReducingLogic {
  @inlinable
  var initialDemand: Subscribers.Demand { .unlimited }

  @inlinable
  var demandTracking: DemandTracking { .requested }

  @inlinable
  func receive(
    completion: Subscribers.Completion<UpstreamFailure>, _ state: inout State
  ) -> OperatorEnding<Output, Failure> {
    switch completion {
    case .finished: .result(result(state))
    case .failure(let failure): ending(for: failure)
    }
  }

  /// The upstream was asked for everything already: the downstream's demand is for the result
  /// only, and the driver keeps track of it.
  @inlinable
  func request(_ demand: Subscribers.Demand, from upstream: (any Subscription)?) {}
}
