import CombineExCore

/// The source of every ``DeferredFuture``: a cold publisher that starts its work for each
/// subscription and publishes the first result the work reports through its promise.
struct FutureWork<Output, Failure: Error>: Publisher {
  /// Starts the work of one subscription with its promise, and returns how to cancel that
  /// work, or `nil` if it cannot be cancelled.
  let start: (@escaping Future<Output, Failure>.Promise) -> (@Sendable () -> Void)?

  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    // The core's single-result subscription, as `Future`'s; it never delivers before the work
    // has been started and `receive(subscription:)` has returned.
    let subscription = SingleResultSubscription(kind: .work, origin: nil, downstream: subscriber)
    subscriber.receive(subscription: subscription)
    // Not if the subscriber cancelled from inside `receive(subscription:)`.
    guard subscription.mayStartWork else { return }
    let cancelWork = start { [subscription] result in subscription.fulfill(result) }
    subscription.finishStartingWork(cancellingWith: cancelWork)
  }
}
