/// A subscriber that wants to know when its upstream has forgotten it after a cancel.
///
/// Upstreams that can tell (the subjects' subscriptions, `Publishers.Sequence`, `Just`,
/// `Result.Publisher` and `Optional.Publisher`) hand their subscription over with
/// ``handOver(_:reportingDetachTo:)`` and later call ``reportDetach(to:)`` once no delivery to
/// the subscriber runs, on any thread, and none will start. A ``Subscribers/Sink`` then delivers
/// values without atomic bookkeeping and still releases its closures on cancel; with any other
/// upstream it counts its deliveries instead.
///
/// Internal, not a requirement of `Subscriber`: the core declares only Combine's names. The
/// casts in the two functions below are resolved at compile time in specialized code.
@usableFromInline
protocol UpstreamDetachObserving {
  /// `receive(subscription:)`, from an upstream that promises to call
  /// ``upstreamDetached()`` after a cancel, once no delivery runs and none will start.
  func receive(subscriptionReportingDetach subscription: any Subscription)

  /// The upstream forgot this subscriber (after a cancel, or a completion).
  func upstreamDetached()
}

/// Hands `subscriber` its subscription, promising to report when the upstream has forgotten it
/// (``reportDetach(to:)``).
@inlinable
func handOver<S: Subscriber>(_ subscription: any Subscription, reportingDetachTo subscriber: S) {
  if let observer = subscriber as? any UpstreamDetachObserving {
    observer.receive(subscriptionReportingDetach: subscription)
  } else {
    subscriber.receive(subscription: subscription)
  }
}

/// Tells `subscriber`, handed its subscription by ``handOver(_:reportingDetachTo:)``, that the
/// upstream has forgotten it: no delivery to it runs, on any thread, and none will start.
@inlinable
func reportDetach<S: Subscriber>(to subscriber: S) {
  (subscriber as? any UpstreamDetachObserving)?.upstreamDetached()
}

extension Subscribers.Sink: UpstreamDetachObserving {}

// Stateless links pass their upstream's subscription through untouched, so they pass on its
// promise to report detach, and the report.
extension MapSubscriber: UpstreamDetachObserving where Downstream: UpstreamDetachObserving {
  @inlinable
  func receive(subscriptionReportingDetach subscription: any Subscription) {
    downstream.receive(subscriptionReportingDetach: subscription)
  }

  @inlinable
  func upstreamDetached() { downstream.upstreamDetached() }
}

extension FilterSubscriber: UpstreamDetachObserving where Downstream: UpstreamDetachObserving {
  @inlinable
  func receive(subscriptionReportingDetach subscription: any Subscription) {
    downstream.receive(subscriptionReportingDetach: subscription)
  }

  @inlinable
  func upstreamDetached() { downstream.upstreamDetached() }
}

extension CompactMapSubscriber: UpstreamDetachObserving
where Downstream: UpstreamDetachObserving {
  @inlinable
  func receive(subscriptionReportingDetach subscription: any Subscription) {
    downstream.receive(subscriptionReportingDetach: subscription)
  }

  @inlinable
  func upstreamDetached() { downstream.upstreamDetached() }
}
