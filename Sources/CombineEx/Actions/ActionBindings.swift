import CombineExCore

/// The subscriptions to the sources an action is bound to (`action <~ source`): kept until the
/// source completes, and cancelled when the action is freed.
///
/// It holds the subscriptions, not the action: the bindings' subscribers see the action
/// weakly, so a binding never keeps its action alive.
final class ActionBindings: @unchecked Sendable {
  // @unchecked Sendable: `subscriptions` and `isEnded` are guarded by `lock`.

  private let lock = Lock()
  private var subscriptions: [CombineIdentifier: any Subscription] = [:]
  /// The action is gone: no binding is kept any more.
  private var isEnded = false

  /// Keeps the subscription of binding `id`.
  ///
  /// - Returns: `false` if the action is gone; the caller then cancels the subscription.
  func keep(_ subscription: any Subscription, for id: CombineIdentifier) -> Bool {
    lock.withLock {
      guard !isEnded else { return false }
      subscriptions[id] = subscription
      return true
    }
  }

  /// Forgets binding `id`, whose source completed.
  func forget(_ id: CombineIdentifier) {
    let released = lock.withLock { subscriptions.removeValue(forKey: id) }
    _ = released  // Released here, outside the lock.
  }

  /// The action is being freed: cancels every binding.
  func endAll() {
    let ended = lock.withLock { () -> [any Subscription] in
      isEnded = true
      defer { subscriptions = [:] }
      return Array(subscriptions.values)
    }
    for subscription in ended { subscription.cancel() }
  }
}
