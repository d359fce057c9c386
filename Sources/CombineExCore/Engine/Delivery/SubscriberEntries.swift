/// The entry points of a subscription's five events (its upstream's three and its downstream's
/// two), made where the subscription is made.
///
/// An upstream or a downstream that calls a generic subscription through its protocol
/// (`any Subscription`, or a publisher that is not specialized for it) reaches the class's
/// unspecialized code, where every generic type it touches costs a lookup in the runtime's
/// metadata cache (thousands of instructions per subscription). Closures written in the
/// subscription's `@inlinable` init are specialized where the operator's
/// `receive(subscriber:)` is, so the protocol methods only call them. Each takes the
/// subscription as its argument and captures nothing (no allocation, no cycle). Used by
/// ``OperatorDriver``, `buffer`, the timing operators, the sharing operators' inner
/// subscriptions, `subscribe(_:)`'s subject subscriber, the `untilOutputFrom` storages and the
/// relay's stages (the combining and merge engines still have their own spellings).
@usableFromInline
struct SubscriberEntries<Owner: AnyObject, Input, Failure: Error> {
  @usableFromInline
  let subscription: (Owner, any Subscription) -> Void
  @usableFromInline
  let value: (Owner, Input) -> Subscribers.Demand
  @usableFromInline
  let completion: (Owner, Subscribers.Completion<Failure>) -> Void
  @usableFromInline
  let request: (Owner, Subscribers.Demand) -> Void
  @usableFromInline
  let cancel: (Owner) -> Void

  @inlinable
  init(
    subscription: @escaping (Owner, any Subscription) -> Void,
    value: @escaping (Owner, Input) -> Subscribers.Demand,
    completion: @escaping (Owner, Subscribers.Completion<Failure>) -> Void,
    request: @escaping (Owner, Subscribers.Demand) -> Void,
    cancel: @escaping (Owner) -> Void
  ) {
    self.subscription = subscription
    self.value = value
    self.completion = completion
    self.request = request
    self.cancel = cancel
  }
}
