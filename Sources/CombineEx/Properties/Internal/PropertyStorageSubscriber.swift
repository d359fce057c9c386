import CombineExCore

/// A subscriber that forwards everything to `downstream` and keeps `retained` alive for as long
/// as the publisher holds it, that is until the subscription is cancelled or completes.
///
/// Eager properties attach their subscribers through it, so that the state they deliver from
/// (a ``PropertyStorage``) lives while anybody is subscribed, even after the ``Property`` that
/// exposed it is gone.
///
/// A class, not a struct: a subject's conduit copies its subscriber out for each delivery, and
/// copying this one costs one reference count instead of two, the second of them on the
/// storage (whose count took the slow path while relays referred to it weakly); 140
/// instructions per delivery, measured with Benchmarks' j4.
@usableFromInline
final class PropertyStorageSubscriber<Downstream: Subscriber>: Subscriber,
  CustomStringConvertible
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream

  @usableFromInline
  let retained: AnyObject

  @inlinable
  init(downstream: Downstream, retained: AnyObject) {
    self.downstream = downstream
    self.retained = retained
  }

  /// The downstream's identifier: this link adds no identity of its own.
  @inlinable
  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  @usableFromInline
  var description: String { "\(downstream)" }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}
