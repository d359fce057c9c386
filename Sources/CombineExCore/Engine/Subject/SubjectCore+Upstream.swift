import Synchronization

// Upstream subscriptions: those a subject receives when it subscribes to publishers
// (`publisher.subscribe(subject)`, `multicast`). Guarded by the core's `lock`; no token needed.

extension SubjectCore {
  /// Keeps a subscription sent to the subject (to cancel it when the subject goes away) and
  /// requests unlimited values from it, as Combine's subjects do: at once if the subject has had
  /// downstream demand (always, for replaying subjects), otherwise when the first downstream
  /// demand arrives (``requestUpstreamOnce()``), so that values an upstream would send before
  /// anyone wants them are not lost. Values that arrive after the subject completed are ignored
  /// like any other send.
  ///
  /// Subscriptions that have ended (the core's own, from `subscribe(_ subject:)` and
  /// `multicast`, which tell: ``EndingSubscription``) are dropped here, so a subject that is
  /// connected again and again (`share()`) does not keep every past connection.
  @usableFromInline
  package func receiveUpstream(_ subscription: any Subscription) {
    let kept = lock.withLock { upstreamSubscriptions }
    let ended = Set(
      kept.lazy.compactMap { $0 as? any EndingSubscription }.filter(\.hasEnded)
        .map(ObjectIdentifier.init))
    let (dropped, requestsNow) = lock.withLock { () -> ([any Subscription], Bool) in
      var dropped: [any Subscription] = []
      if !ended.isEmpty {
        var remaining: [any Subscription] = []
        for upstream in upstreamSubscriptions {
          if let ending = upstream as? any EndingSubscription,
            ended.contains(ObjectIdentifier(ending))
          {
            dropped.append(upstream)
          } else {
            remaining.append(upstream)
          }
        }
        upstreamSubscriptions = remaining
      }
      upstreamSubscriptions.append(subscription)
      return (dropped, upstreamDemanded.load(ordering: .relaxed))
    }
    _ = dropped  // Released here, after the lock.
    if requestsNow { subscription.request(.unlimited) }
  }

  /// Requests unlimited values from every upstream subscription, the first time a subscriber
  /// asks for values (a ``PassthroughSubject``'s first downstream demand, as in Combine).
  @usableFromInline
  func requestUpstreamOnce() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      guard !upstreamDemanded.load(ordering: .relaxed) else { return [] }
      upstreamDemanded.store(true, ordering: .relaxed)
      return upstreamSubscriptions
    }
    for subscription in subscriptions {
      subscription.request(.unlimited)
    }
  }

  /// Cancels every subscription sent to the subject; called when the subject goes away.
  @usableFromInline
  package func cancelUpstream() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      defer { upstreamSubscriptions = [] }
      return upstreamSubscriptions
    }
    for subscription in subscriptions {
      subscription.cancel()
    }
  }
}
