/// The life of an operator's connection to one upstream, for the operators that keep it by hand
/// (the scheduled-delivery operators, the multicast connection, the second inputs); the
/// ``OperatorDriver`` keeps its own in ``OperatorStateMachine``. Package-visible: CombineEx's
/// `prefix(during:)` and `sink(duringLifetimeOf:)` keep theirs in it too. (Action runs and the
/// store's cancellable runs keep a phase of their own: they run unspecialized, where testing
/// this enum's case copies its `any Subscription` through the runtime's value witnesses.)
@usableFromInline
package enum OperatorStatus {
  /// Created, waiting for the upstream's subscription.
  case awaitingSubscription
  /// Connected to the upstream.
  case subscribed(any Subscription)
  /// Completed, failed or cancelled: nothing more happens.
  case terminated

  @usableFromInline
  package var isSubscribed: Bool {
    if case .subscribed = self { return true }
    return false
  }

  /// The upstream subscription, while connected.
  @inlinable
  package var upstream: (any Subscription)? {
    if case .subscribed(let upstream) = self { return upstream }
    return nil
  }

  /// Connects to `subscription` if none arrived yet; returns whether it did (a second
  /// subscription must be cancelled by the caller, outside its lock).
  @inlinable
  package mutating func accept(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = self else { return false }
    self = .subscribed(subscription)
    return true
  }

  /// Ends the status; returns the upstream subscription it held, if any, for the caller to
  /// cancel outside its lock.
  @inlinable
  package mutating func terminate() -> (any Subscription)? {
    defer { self = .terminated }
    return upstream
  }
}
