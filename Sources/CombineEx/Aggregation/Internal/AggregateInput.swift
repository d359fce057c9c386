import CombineExCore

/// The subscriber a ``Publishers/Aggregate`` built from known publishers hands its combining
/// storage: it does not depend on the aggregate's subscriber's type, so an input can be
/// subscribed by code specialized where the publisher's type is known (``AggregateInput``).
/// Its closures are made where the subscriber's type is known, and call it directly.
@usableFromInline
struct AggregateSink<Failure: Error>: Subscriber {
  @usableFromInline
  typealias Input = [Any]

  @usableFromInline
  let combineIdentifier: CombineIdentifier
  @usableFromInline
  let onSubscription: (any Subscription) -> Void
  @usableFromInline
  let onValue: ([Any]) -> Subscribers.Demand
  @usableFromInline
  let onCompletion: (Subscribers.Completion<Failure>) -> Void

  /// A sink that turns each combination into `subscriber`'s input with `aggregationBlock`.
  @inlinable
  init<S: Subscriber>(_ subscriber: S, aggregationBlock: @escaping ([Any]) -> S.Input)
  where S.Failure == Failure {
    combineIdentifier = subscriber.combineIdentifier
    onSubscription = { subscriber.receive(subscription: $0) }
    onValue = { subscriber.receive(aggregationBlock($0)) }
    onCompletion = { subscriber.receive(completion: $0) }
  }

  @inlinable
  func receive(subscription: any Subscription) { onSubscription(subscription) }

  @inlinable
  func receive(_ input: [Any]) -> Subscribers.Demand { onValue(input) }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) { onCompletion(completion) }
}

/// One input of a ``Publishers/Aggregate`` whose publisher is known where it is made: the ways
/// to subscribe it to either strategy's storage, made by code specialized for the publisher.
///
/// The fixed-arity and array forms build their aggregates from these, so an input's values
/// reach the storage through specialized code instead of the generic code that the
/// `componentBuilder`'s existential aggregator leads to.
@usableFromInline
struct AggregateInput<Value, Failure: Error> {
  @usableFromInline
  typealias LatestStorage = CombiningStorage<AggregateLatestValues, AggregateSink<Failure>>
  @usableFromInline
  typealias ZipStorage = CombiningStorage<AggregateZipQueues, AggregateSink<Failure>>

  @usableFromInline
  let subscribeLatest: (LatestStorage, Int) -> Void
  @usableFromInline
  let subscribeZip: (ZipStorage, Int) -> Void

  @inlinable
  init(
    subscribeLatest: @escaping (LatestStorage, Int) -> Void,
    subscribeZip: @escaping (ZipStorage, Int) -> Void
  ) {
    self.subscribeLatest = subscribeLatest
    self.subscribeZip = subscribeZip
  }

  /// The same input, without its value type (the aggregate keeps its inputs in one array).
  @inlinable
  var erased: AggregateInput<Void, Failure> {
    AggregateInput<Void, Failure>(subscribeLatest: subscribeLatest, subscribeZip: subscribeZip)
  }

  @inlinable
  init<P: Publisher>(_ publisher: P) where P.Output == Value, P.Failure == Failure {
    subscribeLatest = { storage, index in
      storage.subscribe(publisher, at: index) { values, value in values.store(value, at: index) }
    }
    subscribeZip = { storage, index in
      storage.subscribe(publisher, at: index) { values, value in values.store(value, at: index) }
    }
  }
}
