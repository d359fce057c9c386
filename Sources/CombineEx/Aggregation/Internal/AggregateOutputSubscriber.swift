import CombineExCore

/// Sits between an aggregate's combining storage and its subscriber: turns each combination of
/// type-erased values into the aggregate's output with the aggregation block.
///
/// The block runs here, on the delivering thread and outside the storage's lock (the storage
/// delivers one combination at a time, outside its lock).
struct AggregateOutputSubscriber<Downstream: Subscriber>: Subscriber {
  typealias Input = [Any]
  typealias Failure = Downstream.Failure

  let downstream: Downstream
  let aggregationBlock: ([Any]) -> Downstream.Input

  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: [Any]) -> Subscribers.Demand {
    downstream.receive(aggregationBlock(input))
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}
