import CombineExCore

/// The publisher behind ``Effect/cancel(id:)`` and ``Effect/cancel(ids:)``: each subscription
/// cancels the runs in flight under its ids in `registry`, then finishes at once without
/// publishing anything (as `Effect.fireAndForget { registry.cancel(key) }` would, without its
/// `Deferred`, its `Empty` and their two type erasures).
struct CancellingPublisher<Output, Failure: Error>: Publisher {
  /// The ids a subscription cancels.
  enum Keys {
    case one(CancellationKey)
    case several([CancellationKey])
  }

  let keys: Keys
  /// The table of the store that runs the effect (or the process-wide one).
  let registry: CancellationRegistry

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    switch keys {
    case .one(let key):
      registry.cancel(key)
    case .several(let keys):
      for key in keys {
        registry.cancel(key)
      }
    }
    completeAtOnce(subscriber, with: .finished)
  }
}
