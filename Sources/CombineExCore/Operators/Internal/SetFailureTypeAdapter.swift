/// A never-failing publisher presented with another failure type: the internal stand-in for
/// `Publishers.SetFailureType`, which the flatMap and switchToLatest overloads for mismatched
/// failure types use until that operator exists in this module. Events pass straight through;
/// the upstream cannot fail, so its completion can only be `.finished`.
struct SetFailureTypeAdapter<Upstream: Publisher, Failure: Error>: Publisher
where Upstream.Failure == Never {
  typealias Output = Upstream.Output

  let upstream: Upstream

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    upstream.receive(subscriber: SetFailureTypeAdapterSubscriber(downstream: subscriber))
  }
}

/// The subscriber ``SetFailureTypeAdapter`` attaches upstream: it forwards everything, and
/// passes `.finished` on as a completion of the downstream's failure type.
struct SetFailureTypeAdapterSubscriber<Downstream: Subscriber>: Subscriber,
  CustomStringConvertible
{
  typealias Input = Downstream.Input
  typealias Failure = Never

  let downstream: Downstream

  /// The downstream's identifier: this stateless link adds no identity of its own.
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { "SetFailureType" }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Never>) {
    downstream.receive(completion: .finished)
  }
}
