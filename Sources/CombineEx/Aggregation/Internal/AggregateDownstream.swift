import CombineExCore

/// The subscriber that the combining storage of a ``Publishers/Aggregate`` made from known
/// publishers delivers to: the aggregate's subscriber, with only its output type kept.
///
/// Known publishers (the fixed-arity and array forms) are subscribed by a function the
/// aggregate stores, made where their types are known; the subscriber's type is known only when
/// it attaches, so that function receives the subscriber erased to this. The closures are made
/// where the subscriber's type is known and call it directly; a class, so that the storage
/// copies one reference per delivery, not three closures.
@usableFromInline
final class AggregateDownstream<Input, Failure: Error>: Subscriber {
  @usableFromInline
  let combineIdentifier: CombineIdentifier
  @usableFromInline
  let onSubscription: (any Subscription) -> Void
  @usableFromInline
  let onValue: (Input) -> Subscribers.Demand
  @usableFromInline
  let onCompletion: (Subscribers.Completion<Failure>) -> Void

  @inlinable
  init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
    combineIdentifier = subscriber.combineIdentifier
    onSubscription = { subscriber.receive(subscription: $0) }
    onValue = { subscriber.receive($0) }
    onCompletion = { subscriber.receive(completion: $0) }
  }

  @inlinable
  func receive(subscription: any Subscription) { onSubscription(subscription) }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand { onValue(input) }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) { onCompletion(completion) }
}

/// The subscriber a fixed-arity `combineLatest`'s combining storage delivers to: passes the
/// values of each shared tuple (``AggregateBoxedTuple``) on to the aggregate's subscriber.
@usableFromInline
struct AggregateTupleDownstream<Tuple, Failure: Error>: Subscriber {
  @usableFromInline
  let downstream: AggregateDownstream<Tuple, Failure>

  @inlinable
  init(_ downstream: AggregateDownstream<Tuple, Failure>) { self.downstream = downstream }

  @inlinable
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @inlinable
  func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }

  @inlinable
  func receive(_ input: AggregateBoxedTuple<Tuple>) -> Subscribers.Demand {
    downstream.receive(input.tuple)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}
