/// The life of `drop(untilOutputFrom:)`'s subscription, as a value type whose transitions
/// return what to do; ``DropUntilOutputStorage`` runs them under its lock and performs the
/// actions after releasing it. Nothing here calls out.
///
/// Three parts move independently, each an enum that carries its data: the upstream, the
/// trigger (the second publisher) and the gate. The downstream has its subscription from the
/// start (Combine hands it over before subscribing either input), so its requests before the
/// upstream's subscription wait for it. Upstream values are dropped while the gate is closed,
/// and pass once the trigger's first value has opened it. The operator ends when the upstream
/// completes (passed on; the trigger is cancelled), when the trigger completes before its value
/// (passed on; the upstream is cancelled), or at a cancel (both are cancelled).
///
/// `@usableFromInline`, with its storage, so that it is specialized where the operator's
/// `receive(subscriber:)` is (see ``DropUntilOutputStorage``).
@usableFromInline
struct DropUntilOutputStateMachine<Failure: Error> {
  /// The upstream, whose values the gate drops or lets through.
  @usableFromInline
  enum Upstream {
    /// Waiting for its subscription, with what the downstream requested meanwhile.
    case awaitingSubscription(pending: Subscribers.Demand)
    /// Connected.
    case subscribed(any Subscription)
    /// The operator ended: completed, failed or cancelled.
    case ended
  }

  /// The second publisher, whose first value opens the gate.
  @usableFromInline
  enum Trigger {
    /// Waiting for its subscription.
    case awaitingSubscription
    /// Connected, and asked for one value. As in Combine, it stays connected after its value
    /// until the operator ends, which cancels it.
    case subscribed(any Subscription)
    /// Completed, or let go of at the end: nothing to cancel.
    case done
  }

  /// Whether upstream values are dropped.
  @usableFromInline
  enum Gate {
    /// Before the trigger's value: values are dropped. `allowance` is what the downstream
    /// requested minus the values dropped so far: as in Combine, a dropped value uses up the
    /// demand it was sent for, and one beyond it is the upstream's misuse.
    case closed(allowance: Subscribers.Demand)
    /// After the trigger's value: values pass, and nothing is checked.
    case open
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
    /// Deliver this completion to the downstream.
    @usableFromInline
    var deliver: Subscribers.Completion<Failure>?

    @inlinable
    init(
      cancelUpstream: (any Subscription)? = nil, cancelTrigger: (any Subscription)? = nil,
      releasesDownstream: Bool = false, deliver: Subscribers.Completion<Failure>? = nil
    ) {
      self.cancelUpstream = cancelUpstream
      self.cancelTrigger = cancelTrigger
      self.releasesDownstream = releasesDownstream
      self.deliver = deliver
    }
  }

  @usableFromInline
  var upstream = Upstream.awaitingSubscription(pending: .none)
  @usableFromInline
  var trigger = Trigger.awaitingSubscription
  @usableFromInline
  var gate = Gate.closed(allowance: .none)

  @inlinable
  init() {}

  /// Whether the operator has not ended yet.
  @inlinable
  var isLive: Bool {
    if case .ended = upstream { return false }
    return true
  }

  // MARK: Upstream

  /// The upstream's subscription arrived: returns the demand to request from it, or `nil` to
  /// cancel it (a second subscription, or one that arrives after the end).
  @inlinable
  mutating func upstreamSubscribed(_ subscription: any Subscription) -> Subscribers.Demand? {
    guard case .awaitingSubscription(let pending) = upstream else { return nil }
    upstream = .subscribed(subscription)
    return pending
  }

  /// An upstream value arrived: returns whether to deliver it. While the gate is closed it is
  /// dropped, whatever the upstream's state (before its subscription, after the end), and as in
  /// Combine a value beyond what the downstream requested stops the program. Once the gate is
  /// open, a value is delivered while the upstream is connected, and ignored after the end.
  @inlinable
  mutating func admitValue() -> Bool {
    guard case .closed(let allowance) = gate else {
      if case .subscribed = upstream { return true }
      return false
    }
    checkAPI(
      allowance > .none,
      "the upstream of drop(untilOutputFrom:) sent a value that was not requested. A publisher"
        + " sends at most the demand its subscriber asked for.")
    gate = .closed(allowance: allowance - 1)
    return false
  }

  /// The upstream completed: the operator ends the same way (once connected; a completion
  /// before the subscription or after the end is ignored) and cancels the trigger.
  @inlinable
  mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Action {
    guard case .subscribed = upstream else { return Action() }
    var action = Action(releasesDownstream: true, deliver: completion)
    if case .subscribed(let subscription) = trigger { action.cancelTrigger = subscription }
    trigger = .done
    upstream = .ended
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

  /// The trigger sent a value: the first opens the gate.
  @inlinable
  mutating func triggerSent() {
    guard case .subscribed = trigger else { return }
    gate = .open
  }

  /// The trigger completed: before its value, the operator ends the same way and cancels the
  /// upstream; after it, nothing changes.
  @inlinable
  mutating func triggerCompleted(_ completion: Subscribers.Completion<Failure>) -> Action {
    guard case .subscribed = trigger else { return Action() }
    trigger = .done
    guard case .closed = gate else { return Action() }
    // The trigger is connected only while the operator is live (every ending lets go of it).
    assert(isLive, "the trigger outlived the operator")
    var action = Action(releasesDownstream: true, deliver: completion)
    if case .subscribed(let subscription) = upstream { action.cancelUpstream = subscription }
    upstream = .ended
    return action
  }

  // MARK: Downstream

  /// The downstream requested `demand`: returns the upstream to pass it on to, if connected.
  @inlinable
  mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
    if case .closed(let allowance) = gate { gate = .closed(allowance: allowance + demand) }
    switch upstream {
    case .awaitingSubscription(let pending):
      upstream = .awaitingSubscription(pending: pending + demand)
      return nil
    case .subscribed(let subscription):
      return subscription
    case .ended:
      return nil
    }
  }

  /// The downstream cancelled: both inputs are cancelled and the downstream released.
  @inlinable
  mutating func cancel() -> Action {
    var action = Action(releasesDownstream: true)
    if case .subscribed(let subscription) = upstream { action.cancelUpstream = subscription }
    if case .subscribed(let subscription) = trigger { action.cancelTrigger = subscription }
    trigger = .done
    upstream = .ended
    return action
  }
}
