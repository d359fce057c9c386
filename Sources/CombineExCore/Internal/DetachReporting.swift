// How an upstream tells a subscriber that it has forgotten it after a cancel, through the
// underscored, defaulted `Subscriber` requirements `_receive(subscriptionReportingDetach:)` and
// `_upstreamDetached()` (Docs/Core.md lists them). Upstreams that can tell (the subjects'
// subscriptions, `Publishers.Sequence`, `Just`, `Result.Publisher`, `Optional.Publisher`, and
// `receive(on:)`: its outbox, and on the immediate scheduler the upstream's report passed on)
// hand their subscription over with `handOver(_:reportingDetachTo:)` and later call
// `reportDetach(to:)` once no delivery to the subscriber runs, on any thread, and none will
// start. A `Subscribers.Sink` then delivers values without atomic bookkeeping and still releases
// its closures on cancel; with any other upstream it counts its deliveries instead.
//
// Requirements, not casts to an internal protocol: the runtime resolves such a cast on every
// subscription (about 100 instructions each, three per `Just(i).map.sink`), where a requirement
// is a direct call in specialized code.

/// Hands `subscriber` its subscription, promising to report when the upstream has forgotten it
/// (``reportDetach(to:)``).
@inlinable
func handOver<S: Subscriber>(_ subscription: any Subscription, reportingDetachTo subscriber: S) {
  subscriber._receive(subscriptionReportingDetach: subscription)
}

/// Tells `subscriber`, handed its subscription by ``handOver(_:reportingDetachTo:)``, that the
/// upstream has forgotten it: no delivery to it runs, on any thread, and none will start.
@inlinable
func reportDetach<S: Subscriber>(to subscriber: S) {
  subscriber._upstreamDetached()
}

// Stateless links pass their upstream's subscription through untouched, so they pass on its
// promise to report detach, and the report.
extension MapSubscriber {
  @inlinable
  func _receive(subscriptionReportingDetach subscription: any Subscription) {
    downstream._receive(subscriptionReportingDetach: subscription)
  }

  @inlinable
  func _upstreamDetached() { downstream._upstreamDetached() }
}

extension FilterSubscriber {
  @inlinable
  func _receive(subscriptionReportingDetach subscription: any Subscription) {
    downstream._receive(subscriptionReportingDetach: subscription)
  }

  @inlinable
  func _upstreamDetached() { downstream._upstreamDetached() }
}

extension CompactMapSubscriber {
  @inlinable
  func _receive(subscriptionReportingDetach subscription: any Subscription) {
    downstream._receive(subscriptionReportingDetach: subscription)
  }

  @inlinable
  func _upstreamDetached() { downstream._upstreamDetached() }
}
