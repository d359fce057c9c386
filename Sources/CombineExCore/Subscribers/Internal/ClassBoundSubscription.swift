/// Returns the subscription as a class-bound existential (16 bytes instead of 40), boxing the
/// rare subscription that is a value type.
@inlinable
func classBound(_ subscription: any Subscription) -> any AnyObject & Subscription {
  subscription._classBoundSubscription ?? BoxedSubscription(subscription)
}

/// Holds a subscription that is not a class, for ``classBound(_:)`` and ``MergeSubscription``.
@usableFromInline
final class BoxedSubscription: Subscription {
  @usableFromInline
  let wrapped: any Subscription

  @usableFromInline
  init(_ wrapped: any Subscription) {
    self.wrapped = wrapped
  }

  @usableFromInline
  var combineIdentifier: CombineIdentifier { wrapped.combineIdentifier }

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    wrapped.request(demand)
  }

  @usableFromInline
  func cancel() {
    wrapped.cancel()
  }
}
