import Synchronization

/// The subscription of a publisher that completes as soon as it is subscribed (``Empty``,
/// ``Fail``, an empty `Publishers.Sequence`, a subject that already completed).
///
/// Like `Subscriptions.empty`, it ignores demand; unlike it, it remembers a cancel, so that a
/// subscriber that cancels from inside `receive(subscription:)` receives nothing more (rule 2:
/// nothing after cancel). `Subscriptions.empty` is one shared object and cannot tell.
@usableFromInline
package final class ImmediateCompletionSubscription: Subscription, CustomStringConvertible,
  Sendable
{
  @usableFromInline
  let cancelled = Atomic<Bool>(false)

  @inlinable
  package init() {}

  @usableFromInline
  package var description: String { "Empty" }

  @inlinable
  package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  @inlinable
  package func request(_ demand: Subscribers.Demand) {}

  @inlinable
  package func cancel() {
    cancelled.store(true, ordering: .releasing)
  }
}

/// Hands `subscriber` a subscription, then `completion`, unless the subscriber cancelled from
/// inside `receive(subscription:)`.
@inlinable
package func completeAtOnce<S: Subscriber>(
  _ subscriber: S, with completion: Subscribers.Completion<S.Failure>
) {
  let subscription = ImmediateCompletionSubscription()
  subscriber.receive(subscription: subscription)
  if !subscription.isCancelled {
    subscriber.receive(completion: completion)
  }
}
