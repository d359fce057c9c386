/// The pure state of the operators that relay one upstream at a time and then move on to the
/// next one, carrying the downstream's outstanding demand over: `Publishers.Concatenate`
/// (prefix, then suffix), `catch` and `tryCatch` (upstream, then the handler's publisher) and
/// `retry` (the upstream, again and again).
///
/// Each upstream is a *stage*, numbered from 0. Events carry their stage's number, so a late
/// event of an earlier stage (or of a stage that arrived after cancellation) is recognised and
/// ignored. ``RelayStorage`` owns one machine and performs what its transitions return after
/// releasing its lock.
///
/// As in Combine, the downstream receives its subscription when the first stage's subscription
/// arrives (not when it subscribes), so an upstream that never sends a subscription leaves it
/// without one.
///
/// Values pass straight through without buffering: only one stage is live at a time, and a
/// stage starts only after the previous one completed, so deliveries never overlap.
@usableFromInline
struct RelayStateMachine {
  /// Where the relay is in its life.
  @usableFromInline
  enum State {
    /// Waiting for the subscription of `stage` (at the start, or after the previous stage
    /// completed). Demand the downstream requests meanwhile accumulates in `demand`, and goes
    /// to the stage when its subscription arrives.
    case awaitingSubscription(stage: Int, demand: Subscribers.Demand)
    /// Relaying `stage`, which still owes `demand` values (requested and not yet received).
    case connected(stage: Int, subscription: any Subscription, demand: Subscribers.Demand)
    /// Completed or cancelled: later events are ignored and late subscriptions cancelled.
    case terminated
  }

  /// What to do with a stage's subscription once the lock is released.
  @usableFromInline
  enum SubscriptionAction {
    /// Ask it for the demand carried over.
    case request(any Subscription, Subscribers.Demand)
    /// Cancel it: it belongs to no live stage.
    case cancel(any Subscription)
    /// Nothing yet: no demand is outstanding.
    case none
  }

  /// What to do with a value a stage sent.
  @usableFromInline
  enum ValueVerdict {
    /// Deliver it: it consumed a unit of the downstream's demand.
    case deliver
    /// The live stage sent it without demand (an upstream that breaks rule 1): the operator
    /// ignores it or stops the program, as Combine does.
    case unwanted
    /// It belongs to no live stage (a late value): ignore it.
    case ignore
  }

  /// How a stage's completion relates to the relay's state.
  @usableFromInline
  enum StageCompletion {
    /// The live stage completed; the relay now waits for stage `stage + 1`.
    case live
    /// The stage completed before its subscription arrived (and the operator does not accept
    /// that); nothing changed.
    case beforeSubscription
    /// An earlier stage completed again, while a later one is on (or awaited).
    case stale
    /// The relay already ended.
    case ended
  }

  private(set) var state = State.awaitingSubscription(stage: 0, demand: .none)
  /// Whether the downstream still waits for its subscription (handed over with the first
  /// stage's subscription).
  private(set) var downstreamNeedsSubscription = true

  /// A relay at stage 0, awaiting that stage's subscription (usable from the relay's inlinable
  /// initializer).
  @usableFromInline
  init() {}

  /// Whether the relay has not ended yet.
  @usableFromInline
  var isLive: Bool {
    if case .terminated = state { return false }
    return true
  }

  /// A stage's subscription arrived: returns what to do with it, and whether the caller must
  /// first hand the downstream its subscription (once, with the first stage's).
  @usableFromInline
  mutating func receive(
    subscription: any Subscription, stage: Int
  ) -> (action: SubscriptionAction, subscribeDownstream: Bool) {
    guard case .awaitingSubscription(stage, let demand) = state else {
      return (.cancel(subscription), false)
    }
    state = .connected(stage: stage, subscription: subscription, demand: demand)
    let subscribeDownstream = downstreamNeedsSubscription
    downstreamNeedsSubscription = false
    return (demand > 0 ? .request(subscription, demand) : .none, subscribeDownstream)
  }

  /// A stage sent a value. A value of the awaited stage that comes before its subscription is
  /// delivered if the downstream asked for it (Combine does, for `retry`).
  @usableFromInline
  mutating func receiveValue(stage: Int) -> ValueVerdict {
    switch state {
    case .connected(stage, let subscription, let demand):
      guard demand > 0 else { return .unwanted }
      state = .connected(stage: stage, subscription: subscription, demand: demand - 1)
      return .deliver
    case .awaitingSubscription(stage, let demand):
      guard demand > 0 else { return .unwanted }
      state = .awaitingSubscription(stage: stage, demand: demand - 1)
      return .deliver
    default:
      return .ignore
    }
  }

  /// The downstream asked for `more` in return for a value of `stage`: returns whether the
  /// stage is still the current one, and its subscription if it has one.
  @usableFromInline
  mutating func addDemand(
    _ more: Subscribers.Demand, stage: Int
  ) -> (isCurrent: Bool, subscription: (any Subscription)?) {
    switch state {
    case .connected(stage, let subscription, let demand):
      state = .connected(stage: stage, subscription: subscription, demand: demand + more)
      return (true, subscription)
    case .awaitingSubscription(stage, let demand):
      state = .awaitingSubscription(stage: stage, demand: demand + more)
      return (true, nil)
    default:
      return (false, nil)
    }
  }

  /// A stage completed: if it is the live one (or the awaited one and `acceptEarly`), the relay
  /// waits for stage `stage + 1` (keeping the outstanding demand); the caller then starts that
  /// stage or ends the relay with ``terminate()``.
  @usableFromInline
  mutating func completeStage(_ stage: Int, acceptEarly: Bool) -> StageCompletion {
    switch state {
    case .connected(stage, _, let demand):
      state = .awaitingSubscription(stage: stage + 1, demand: demand)
      return .live
    case .awaitingSubscription(stage, let demand):
      guard acceptEarly else { return .beforeSubscription }
      state = .awaitingSubscription(stage: stage + 1, demand: demand)
      return .live
    case .connected, .awaitingSubscription:
      return .stale
    case .terminated:
      return .ended
    }
  }

  /// Ends the relay after the last stage completed: returns whether it was still live (the
  /// caller then delivers the completion).
  @usableFromInline
  mutating func terminate() -> Bool {
    if case .terminated = state { return false }
    state = .terminated
    return true
  }

  /// The downstream asked for more: returns the live stage's subscription, to pass the demand
  /// on to (without one, the demand waits for the next stage's subscription).
  @usableFromInline
  mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
    switch state {
    case .awaitingSubscription(let stage, let demand):
      state = .awaitingSubscription(stage: stage, demand: demand + more)
      return nil
    case .connected(let stage, let subscription, let demand):
      state = .connected(stage: stage, subscription: subscription, demand: demand + more)
      return subscription
    case .terminated:
      return nil
    }
  }

  /// The downstream cancelled: returns the live stage's subscription, to cancel.
  @usableFromInline
  mutating func cancel() -> (any Subscription)? {
    defer { state = .terminated }
    if case .connected(_, let subscription, _) = state { return subscription }
    return nil
  }
}
