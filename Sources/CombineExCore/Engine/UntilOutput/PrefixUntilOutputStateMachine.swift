/// The life of `prefix(untilOutputFrom:)`'s subscription, as a value type whose transitions
/// return what to do; ``PrefixUntilOutputStorage`` runs them under its lock and performs the
/// actions after releasing it. Nothing here calls out.
///
/// Two parts, each an enum that carries its data: the upstream and the trigger (the second
/// publisher). The downstream receives its subscription when the upstream's arrives (as in
/// Combine); requests before that ask for nothing. The operator ends when the trigger sends its
/// first value (`.finished`; the upstream and the trigger are cancelled), when the upstream
/// completes (passed on; the trigger is cancelled), or at a cancel (both are cancelled).
///
/// The trigger may send from any thread, while an upstream value is being delivered: the
/// downstream must not receive `.finished` during that `receive`. So the upstream's state
/// counts the deliveries in progress, and an ending decided meanwhile waits in
/// ``Upstream/ending(_:deliveries:)`` until the last of them returns.
///
/// `@usableFromInline`, with its storage, so that it is specialized where the operator's
/// `receive(subscriber:)` is (see ``PrefixUntilOutputStorage``).
@usableFromInline
struct PrefixUntilOutputStateMachine<Failure: Error> {
  /// The upstream, and the deliveries of its values in progress.
  @usableFromInline
  enum Upstream {
    /// Waiting for its subscription.
    case awaitingSubscription
    /// Connected; `deliveries` of its values are being delivered now (more than one when a
    /// value is sent re-entrantly from inside the downstream's `receive`).
    case subscribed(any Subscription, deliveries: Int)
    /// Ended while `deliveries` values were being delivered: `completion` goes out when the
    /// last of them returns.
    case ending(Subscribers.Completion<Failure>, deliveries: Int)
    /// Ended: the completion was handed out, or the upstream completed before its
    /// subscription (the downstream, which has no subscription, hears nothing, as in Combine).
    case ended
    /// The downstream cancelled.
    case cancelled
  }

  /// The second publisher, whose first value finishes the operator.
  @usableFromInline
  enum Trigger {
    /// Waiting for its subscription.
    case awaitingSubscription
    /// Connected, and asked for one value.
    case subscribed(any Subscription)
    /// Completed (its completion changes nothing else), or let go of at the end.
    case done
  }

  /// What the storage does after a transition, once the lock is released, in this order.
  @usableFromInline
  struct Action {
    /// Cancel the upstream.
    @usableFromInline
    var cancelUpstream: (any Subscription)?
    /// Cancel the trigger.
    @usableFromInline
    var cancelTrigger: (any Subscription)?
    /// Take the downstream out of the storage (to deliver `deliver` to it, or to release it).
    @usableFromInline
    var releasesDownstream: Bool
    /// Hand the downstream its subscription before delivering: the trigger's value came before
    /// the upstream's subscription, and the downstream never completes without one.
    @usableFromInline
    var subscribesDownstream: Bool
    /// Deliver this completion to the downstream.
    @usableFromInline
    var deliver: Subscribers.Completion<Failure>?

    @inlinable
    init(
      cancelUpstream: (any Subscription)? = nil, cancelTrigger: (any Subscription)? = nil,
      releasesDownstream: Bool = false, subscribesDownstream: Bool = false,
      deliver: Subscribers.Completion<Failure>? = nil
    ) {
      self.cancelUpstream = cancelUpstream
      self.cancelTrigger = cancelTrigger
      self.releasesDownstream = releasesDownstream
      self.subscribesDownstream = subscribesDownstream
      self.deliver = deliver
    }
  }

  @usableFromInline
  var upstream = Upstream.awaitingSubscription
  @usableFromInline
  var trigger = Trigger.awaitingSubscription

  @inlinable
  init() {}

  /// Whether the operator has not ended yet.
  @inlinable
  var isLive: Bool {
    switch upstream {
    case .awaitingSubscription, .subscribed: true
    case .ending, .ended, .cancelled: false
    }
  }

  /// Whether the downstream cancelled.
  @inlinable
  var isCancelled: Bool {
    if case .cancelled = upstream { return true }
    return false
  }

  // MARK: Upstream

  /// The upstream's subscription arrived: returns whether to keep it (and hand the downstream
  /// its subscription); otherwise it is cancelled (a second one, or one after the end).
  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = upstream else { return false }
    upstream = .subscribed(subscription, deliveries: 0)
    return true
  }

  /// An upstream value arrived: returns whether to deliver it (only while connected), then
  /// counts it until ``delivered()``.
  @inlinable
  mutating func admitValue() -> Bool {
    guard case .subscribed(let subscription, let deliveries) = upstream else { return false }
    upstream = .subscribed(subscription, deliveries: deliveries + 1)
    return true
  }

  /// A delivery counted by ``admitValue()`` returned: returns the ending that waited for the
  /// last delivery in progress, if any.
  @inlinable
  mutating func delivered() -> Action? {
    switch upstream {
    case .subscribed(let subscription, let deliveries):
      assert(deliveries > 0, "a delivery returned that was not counted")
      upstream = .subscribed(subscription, deliveries: deliveries - 1)
      return nil
    case .ending(let completion, let deliveries):
      assert(deliveries > 0, "a delivery returned that was not counted")
      guard deliveries == 1 else {
        upstream = .ending(completion, deliveries: deliveries - 1)
        return nil
      }
      upstream = .ended
      return Action(releasesDownstream: true, deliver: completion)
    case .awaitingSubscription, .ended, .cancelled:
      // Ended by a cancel during the delivery: nothing waits.
      return nil
    }
  }

  /// The upstream completed. Once connected, the operator ends the same way (after the
  /// deliveries in progress) and cancels the trigger; before the subscription, it ends without
  /// a word, as in Combine, and cancels the trigger; after the end, nothing happens.
  @inlinable
  mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Action {
    var action = Action()
    switch upstream {
    case .awaitingSubscription:
      action.releasesDownstream = true
      upstream = .ended
    case .subscribed(_, let deliveries):
      if deliveries > 0 {
        upstream = .ending(completion, deliveries: deliveries)
      } else {
        upstream = .ended
        action.releasesDownstream = true
        action.deliver = completion
      }
    case .ending, .ended, .cancelled:
      return action
    }
    if case .subscribed(let subscription) = trigger { action.cancelTrigger = subscription }
    trigger = .done
    return action
  }

  // MARK: Trigger

  /// The trigger's subscription arrived: returns whether to keep it (and ask it for one value).
  @inlinable
  mutating func triggerSubscribed(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = trigger, isLive else { return false }
    trigger = .subscribed(subscription)
    return true
  }

  /// The trigger sent its value: the operator finishes (after the deliveries in progress), and
  /// the upstream and the trigger are cancelled at once.
  @inlinable
  mutating func triggerSent() -> Action {
    guard case .subscribed(let subscription) = trigger else { return Action() }
    var action = Action(cancelTrigger: subscription)
    trigger = .done
    switch upstream {
    case .awaitingSubscription:
      upstream = .ended
      action.subscribesDownstream = true
    case .subscribed(let upstreamSubscription, let deliveries):
      action.cancelUpstream = upstreamSubscription
      guard deliveries == 0 else {
        upstream = .ending(.finished, deliveries: deliveries)
        return action
      }
      upstream = .ended
    case .ending, .ended, .cancelled:
      // Every ending lets go of the trigger: it is connected only while the operator is live.
      assertionFailure("the trigger outlived the operator")
      return Action()
    }
    action.releasesDownstream = true
    action.deliver = .finished
    return action
  }

  /// The trigger completed without a value: it is done with, and nothing else changes.
  @inlinable
  mutating func triggerCompleted() {
    guard case .subscribed = trigger else { return }
    trigger = .done
  }

  // MARK: Downstream

  /// The downstream requested: returns the upstream to pass the request on to, if connected.
  @inlinable
  func request() -> (any Subscription)? {
    guard case .subscribed(let subscription, _) = upstream else { return nil }
    return subscription
  }

  /// The downstream cancelled: both inputs are cancelled, an ending that waited is dropped, and
  /// the downstream is released.
  @inlinable
  mutating func cancel() -> Action {
    var action = Action(releasesDownstream: true)
    if case .subscribed(let subscription, _) = upstream { action.cancelUpstream = subscription }
    if case .subscribed(let subscription) = trigger { action.cancelTrigger = subscription }
    trigger = .done
    upstream = .cancelled
    return action
  }
}
