import CombineExCore

/// A subscriber that forwards everything to `downstream` and keeps `retained` alive for as long
/// as the publisher holds it, that is until the subscription is cancelled or completes.
///
/// Eager properties attach their subscribers through it, so that the state they deliver from
/// (a ``PropertyStorage``) lives while anybody is subscribed, even after the ``Property`` that
/// exposed it is gone.
struct PropertyStorageSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  let downstream: Downstream
  let retained: AnyObject

  /// The downstream's identifier: this link adds no identity of its own.
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { "\(downstream)" }

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}
