import CombineExCore

/// Sits between an aggregate's combining storage and its subscriber: turns each combination of
/// type-erased values into the aggregate's output with the aggregation block.
///
/// The block runs here, on the delivering thread and outside the storage's lock (the storage
/// delivers one combination at a time, outside its lock).
@usableFromInline
struct AggregateOutputSubscriber<Downstream: Subscriber>: Subscriber {
  @usableFromInline
  typealias Input = [Any]
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let aggregationBlock: ([Any]) -> Downstream.Input

  @inlinable
  init(downstream: Downstream, aggregationBlock: @escaping ([Any]) -> Downstream.Input) {
    self.downstream = downstream
    self.aggregationBlock = aggregationBlock
  }

  @inlinable
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: [Any]) -> Subscribers.Demand {
    downstream.receive(aggregationBlock(input))
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}
