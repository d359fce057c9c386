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
/// Values pass straight through without buffering: only one stage is live at a time, and a
/// stage starts only after the previous one completed, so deliveries never overlap.
struct RelayStateMachine {
  /// Where the relay is in its life.
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
  enum SubscriptionAction {
    /// Ask it for the demand carried over.
    case request(any Subscription, Subscribers.Demand)
    /// Cancel it: it belongs to no live stage.
    case cancel(any Subscription)
    /// Nothing yet: no demand is outstanding.
    case none
  }

  private(set) var state = State.awaitingSubscription(stage: 0, demand: .none)

  /// Whether the relay has not ended yet.
  var isLive: Bool {
    if case .terminated = state { return false }
    return true
  }

  /// A stage's subscription arrived.
  mutating func receive(subscription: any Subscription, stage: Int) -> SubscriptionAction {
    guard case .awaitingSubscription(stage, let demand) = state else {
      return .cancel(subscription)
    }
    state = .connected(stage: stage, subscription: subscription, demand: demand)
    return demand > 0 ? .request(subscription, demand) : .none
  }

  /// A stage sent a value: returns whether to deliver it (it consumes a unit of demand).
  mutating func receiveValue(stage: Int) -> Bool {
    guard case .connected(stage, let subscription, let demand) = state else { return false }
    state = .connected(stage: stage, subscription: subscription, demand: demand - 1)
    return true
  }

  /// The downstream asked for `more` in return for a value of `stage`: returns whether the
  /// stage is still live (the demand then goes back to it as the value's return).
  mutating func addDemand(_ more: Subscribers.Demand, stage: Int) -> Bool {
    guard case .connected(stage, let subscription, let demand) = state else { return false }
    state = .connected(stage: stage, subscription: subscription, demand: demand + more)
    return true
  }

  /// A stage completed: if it is the live one, the relay waits for stage `stage + 1` (keeping
  /// the outstanding demand) and this returns `true`; the caller then starts that stage or
  /// ends the relay with ``terminate()``.
  mutating func completeStage(_ stage: Int) -> Bool {
    guard case .connected(stage, _, let demand) = state else { return false }
    state = .awaitingSubscription(stage: stage + 1, demand: demand)
    return true
  }

  /// Ends the relay after the last stage completed: returns whether it was still live (the
  /// caller then delivers the completion).
  mutating func terminate() -> Bool {
    if case .terminated = state { return false }
    state = .terminated
    return true
  }

  /// The downstream asked for more: returns the live stage's subscription, to pass the demand
  /// on to (without one, the demand waits for the next stage's subscription).
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
  mutating func cancel() -> (any Subscription)? {
    defer { state = .terminated }
    if case .connected(_, let subscription, _) = state { return subscription }
    return nil
  }
}
