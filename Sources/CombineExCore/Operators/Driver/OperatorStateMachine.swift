/// The life of every single-upstream operator's subscription, written once: the rules the
/// operators share, as a value type whose transitions return what to do. An
/// ``OperatorDriver`` runs each transition under its lock and performs the returned action
/// (requests, cancels, deliveries) after releasing it; the operator-specific part is the
/// driver's ``OperatorLogic``. Nothing here calls out.
///
/// ## Subscription
/// The downstream receives the driver as its subscription when the upstream's subscription
/// arrives, or earlier, before the upstream is subscribed (`dropFirst`,
/// `drop(untilOutputFrom:)`: ``downstreamSubscribed()``); demand it requests before the upstream's
/// subscription arrives waits for it, and goes up with it. A second subscription, or one that arrives after
/// the end or a cancel, is cancelled.
///
/// ## Values and demand
/// Values are admitted only while connected: before the subscription, after the end and after
/// a cancel they are ignored (and ask for nothing; `drop(untilOutputFrom:)`, before its second
/// input's value, stops the program on one that was not requested, as Combine does). The
/// downstream's requests go to the upstream (through the logic,
/// ``OperatorLogic/request(_:from:)``) and the demand it returns for a value goes back as that
/// value's return. When the logic may end with a final value
/// that waits for demand, the machine keeps track of the downstream's demand
/// (``OperatorLogic/demandTracking``): whether it asked for anything, or what it asked for and
/// has not received; requests of zero are then ignored.
///
/// ## Ending
/// The operator ends once, for one of its causes (``EndCause``): the upstream completed, the
/// logic ended on a value (the upstream is then cancelled), or, for the `untilOutputFrom`
/// operators, the second input sent its value or completed. The ending is delivered at once;
/// or, if it is a result (``OperatorEnding/result(_:)``, with or without a value) and the
/// downstream has not asked for anything, when demand comes
/// (`awaitingDemand`); or, if an upstream value is being delivered meanwhile (only
/// `prefix(untilOutputFrom:)`, whose second input ends it from any thread), when that delivery
/// returns. A value ending (``OperatorEnding/last(_:)``, ``OperatorEnding/result(_:)``) sends
/// `.finished` after the value unless the downstream cancelled from inside its `receive`
/// (`cancelled`).
///
/// ## Cancellation and release
/// A cancel ends everything: the upstream (and the second input) are cancelled, a pending
/// final value or completion is dropped, and nothing is delivered after it. A cancel that
/// comes before the upstream's subscription ends the operator too, or, for the logics that say
/// so (``OperatorLogic/cancelBeforeSubscriptionEnds``), is only noted. The downstream is
/// released when the completion is handed out or at the cancel; the upstream's subscription
/// when the operator ends.
struct OperatorStateMachine<Output, Failure: Error> {
  /// Where the operator is in its life.
  enum State {
    /// Waiting for the upstream's subscription, with the demand the downstream requested
    /// meanwhile.
    case awaitingSubscription(Subscribers.Demand)
    /// Connected to the upstream.
    case subscribed(any Subscription)
    /// Ended: the final value (or, `nil`, the `.finished` of an operator that ends without
    /// one) waits for the downstream's demand.
    case awaitingDemand(Output?)
    /// Completed, failed or cancelled: nothing more happens.
    case terminated
  }

  /// The second input of the `untilOutputFrom` operators.
  enum OtherState {
    /// The operator has no second input.
    case absent
    /// Waiting for its subscription.
    case awaitingSubscription
    /// Connected; asked for one value.
    case subscribed(any Subscription)
    /// Done with: it sent its value, completed, or the operator ended.
    case done
  }

  /// Why the operator ends.
  enum EndCause: Equatable {
    /// The logic ended on an upstream value: the upstream is cancelled.
    case value
    /// The upstream completed.
    case upstreamCompletion
    /// The upstream completed before sending its subscription (a misbehaving upstream; only
    /// for the logics that end on it, ``OperatorLogic/endsOnCompletionBeforeSubscription``).
    case upstreamCompletionBeforeSubscription
    /// The second input sent its value: the upstream is cancelled.
    case otherValue
    /// The second input completed: the upstream is cancelled.
    case otherCompletion
  }

  /// What to do with the upstream's subscription once the lock is released.
  enum SubscriptionAction {
    /// Cancel it: the operator is connected already (`whileConnected`), or ended.
    case cancel(whileConnected: Bool)
    /// Keep it: hand the driver to the downstream (unless it has it already), then request
    /// `demand` (plus the logic's initial demand) from the upstream.
    case start(handToDownstream: Bool, demand: Subscribers.Demand)
  }

  /// What to do with an upstream value.
  enum Admission {
    /// Nothing: the operator is not connected (after the end).
    case ignore
    /// Nothing, or an API violation (``OperatorLogic/trapsEventsBeforeSubscription``): the
    /// upstream's subscription has not arrived yet.
    case early
    /// Drop it, without giving its demand back, as Combine does (`drop(untilOutputFrom:)`
    /// before the second input's value).
    case drop
    /// Run the logic on it (and, if ``tracksDeliveries``, report with ``delivered()``).
    case deliver
  }

  /// What to do with a downstream request.
  enum RequestAction {
    /// Nothing.
    case ignore
    /// Nothing yet: the upstream's subscription has not arrived (the demand waits for it if the
    /// downstream has its subscription).
    case beforeSubscription
    /// Pass it on to this upstream (`nil`: none is connected, the logic may still log it).
    case forward((any Subscription)?)
    /// Deliver the final value that waited for demand.
    case end(Action)
  }

  /// What the driver does after a transition, once the lock is released, in this order.
  struct Action {
    /// Cancel the upstream.
    var cancelUpstream: (any Subscription)?
    /// Cancel the second input.
    var cancelOther: (any Subscription)?
    /// Take the downstream out of the driver (to deliver `deliver` to it, or to release it).
    var releasesDownstream = false
    /// Deliver this ending to the downstream.
    var deliver: OperatorEnding<Output, Failure>?
    /// The operator has ended: call the logic's ``OperatorLogic/ended()`` (after delivering).
    var ended = false
    /// What a cancel dropped, released with the action, after the lock.
    var discarded: OperatorEnding<Output, Failure>?
    /// A cancel before the upstream's subscription was only noted
    /// (``OperatorLogic/cancelBeforeSubscriptionEnds`` is `false`).
    var notedEarlyCancel = false
    /// Hand the downstream its subscription before delivering (`prefix(untilOutputFrom:)`
    /// ended by its second input before the upstream's subscription arrived).
    var subscribesDownstream = false
  }

  private(set) var state = State.awaitingSubscription(.none)
  private(set) var other: OtherState
  /// Whether the downstream cancelled (even after the end).
  private(set) var cancelled = false
  /// Whether the downstream has received the driver as its subscription.
  private var downstreamHasSubscription = false
  /// Whether the downstream requested anything (unless `demandTracking` is `.none`).
  private var hasRequested = false
  /// Demand the downstream requested and has not received (`demandTracking == .outstanding`).
  private var outstanding = Subscribers.Demand.none
  private let demandTracking: DemandTracking
  /// See ``OperatorLogic/cancelBeforeSubscriptionEnds``.
  private let cancelBeforeSubscriptionEnds: Bool
  private let otherRole: OtherInputRole?
  /// Whether the second input sent its value (`drop(untilOutputFrom:)`: values pass).
  private var otherFired = false
  /// `drop(untilOutputFrom:)` before the second input's value: what the downstream requested
  /// minus the values dropped so far (see ``spendDropAllowance()``).
  private var dropAllowance = Subscribers.Demand.none
  /// Upstream values being delivered now (only when ``tracksDeliveries``).
  private var deliveries = 0
  /// An ending decided while a delivery was in progress.
  private var pendingEnding: OperatorEnding<Output, Failure>?

  init(
    demandTracking: DemandTracking, otherInput: OtherInputRole?,
    cancelBeforeSubscriptionEnds: Bool
  ) {
    self.demandTracking = demandTracking
    self.cancelBeforeSubscriptionEnds = cancelBeforeSubscriptionEnds
    otherRole = otherInput
    other = otherInput == nil ? .absent : .awaitingSubscription
  }

  /// Whether deliveries are counted, so that an ending decided on another thread waits for
  /// the delivery in progress: only when the second input can end the operator while the
  /// upstream delivers (`prefix(untilOutputFrom:)`).
  var tracksDeliveries: Bool { otherRole == .stop }

  /// Whether the operator has not ended yet.
  var isLive: Bool {
    switch state {
    case .awaitingSubscription, .subscribed: true
    case .awaitingDemand, .terminated: false
    }
  }

  /// Whether a final value may go out now.
  private var hasDemandForResult: Bool {
    demandTracking == .outstanding ? outstanding > .none : hasRequested
  }

  /// Whether the upstream's subscription has not arrived yet (and the operator has not ended).
  var awaitsSubscription: Bool {
    if case .awaitingSubscription = state { return true }
    return false
  }

  /// Whether the operator is connected to the upstream.
  var isSubscribed: Bool {
    if case .subscribed = state { return true }
    return false
  }

  // MARK: Upstream

  /// The downstream received the driver before the upstream's subscription arrived.
  mutating func downstreamSubscribed() {
    downstreamHasSubscription = true
  }

  /// The upstream's subscription arrived.
  mutating func receive(subscription: any Subscription) -> SubscriptionAction {
    guard case .awaitingSubscription(let demand) = state else {
      return .cancel(whileConnected: isSubscribed)
    }
    state = .subscribed(subscription)
    defer { downstreamHasSubscription = true }
    return .start(handToDownstream: !downstreamHasSubscription, demand: demand)
  }

  /// An upstream value arrived.
  mutating func admitValue() -> Admission {
    guard case .subscribed = state else {
      if otherRole == .start, !otherFired { spendDropAllowance() }
      return awaitsSubscription ? .early : .ignore
    }
    if otherRole == .start, !otherFired {
      spendDropAllowance()
      return .drop
    }
    if tracksDeliveries { deliveries += 1 }
    if demandTracking == .outstanding {
      // As in Combine (`replaceError`): a value the downstream did not ask for is the
      // upstream's misuse.
      checkAPI(
        outstanding > .none,
        "an upstream sent a value that was not requested. A publisher sends at most the demand"
          + " its subscriber asked for.")
      outstanding -= 1
    }
    return .deliver
  }

  /// `drop(untilOutputFrom:)` drops a value (before the second input's value: before the
  /// upstream's subscription, while connected, or after the end). As in Combine, a value beyond
  /// what the downstream requested is the upstream's misuse and stops the program; one within it
  /// (a value that crossed a cancel, say) uses it up. After the second input's value nothing is
  /// checked: values pass, and the demand the downstream returns for them goes to the upstream.
  private mutating func spendDropAllowance() {
    checkAPI(
      dropAllowance > .none,
      "the upstream of drop(untilOutputFrom:) sent a value that was not requested. A publisher"
        + " sends at most the demand its subscriber asked for.")
    dropAllowance -= 1
  }

  /// A delivery counted by ``admitValue()`` returned: returns the ending that waited for it.
  mutating func delivered() -> Action? {
    deliveries -= 1
    guard deliveries == 0, let ending = pendingEnding else { return nil }
    pendingEnding = nil
    return Action(releasesDownstream: true, deliver: ending, ended: true)
  }

  /// The downstream returned `demand` for a value (`demandTracking == .outstanding` only).
  mutating func demandReturned(_ demand: Subscribers.Demand) {
    outstanding += demand
  }

  /// Ends the operator with `ending`, once.
  mutating func end(_ ending: OperatorEnding<Output, Failure>, cause: EndCause) -> Action {
    var action = Action()
    switch state {
    case .subscribed(let upstream):
      if cause != .upstreamCompletion { action.cancelUpstream = upstream }
    case .awaitingSubscription:
      // Only the second input, or an early completion, can end the operator before the
      // upstream is connected.
      guard cause != .value, cause != .upstreamCompletion else { return action }
    case .awaitingDemand, .terminated:
      return action
    }
    if case .subscribed(let subscription) = other, cause != .otherCompletion {
      action.cancelOther = subscription
    }
    if otherRole != nil { other = .done }
    // As in Combine, a result ending waits for demand even without a value: its `.finished`
    // goes out only once the downstream has asked for something.
    if case .result(let value) = ending, !hasDemandForResult {
      state = .awaitingDemand(value)
      return action
    }
    state = .terminated
    if deliveries > 0 {
      pendingEnding = ending
      return action
    }
    if !downstreamHasSubscription, cause == .otherValue {
      // Only `prefix(untilOutputFrom:)`'s second input ends the operator this early: the
      // downstream gets its subscription first, so that it never completes without one.
      downstreamHasSubscription = true
      action.subscribesDownstream = true
    }
    action.releasesDownstream = true
    action.deliver = ending
    action.ended = true
    return action
  }

  /// `prefix(untilOutputFrom:)`'s upstream completed before its subscription: the operator
  /// ends without delivering anything (the downstream has no subscription), as in Combine, and
  /// the second input is cancelled.
  mutating func abandon() -> Action {
    guard case .awaitingSubscription = state else { return Action() }
    var action = Action(releasesDownstream: true, ended: true)
    if case .subscribed(let subscription) = other { action.cancelOther = subscription }
    other = .done
    state = .terminated
    return action
  }

  // MARK: Second input

  /// The second input's subscription arrived: returns whether to keep it (and ask it for one
  /// value).
  mutating func receiveOther(subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = other, isLive else { return false }
    other = .subscribed(subscription)
    return true
  }

  /// The second input sent a value.
  mutating func receiveOtherValue() -> Action {
    guard case .subscribed = other, !otherFired else { return Action() }
    switch otherRole {
    case .stop:
      return end(.completion(.finished), cause: .otherValue)
    case .start:
      // Only the first value matters. As in Combine, the second input's subscription is left
      // alone (it asked for one value) until the operator ends, which cancels it.
      otherFired = true
      return Action()
    case nil:
      return Action()
    }
  }

  /// The second input completed; `completion` is what the logic makes of it (`nil`: nothing).
  mutating func receiveOtherCompletion(_ completion: Subscribers.Completion<Failure>?) -> Action {
    guard case .subscribed = other else { return Action() }
    guard let completion, !otherFired else {
      other = .done
      return Action()
    }
    return end(.completion(completion), cause: .otherCompletion)
  }

  // MARK: Downstream

  /// The downstream requested `demand`.
  mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
    if otherRole == .start { dropAllowance += demand }
    if demandTracking != .none {
      guard demand > .none else { return .ignore }
      hasRequested = true
      if demandTracking == .outstanding, isSubscribed { outstanding += demand }
    }
    switch state {
    case .awaitingSubscription(let pending):
      // Only a downstream that has its subscription already can ask for values; a request
      // made before that (by a caller that found the driver some other way) asks for nothing.
      if downstreamHasSubscription { state = .awaitingSubscription(pending + demand) }
      return .beforeSubscription
    case .subscribed(let upstream):
      return .forward(upstream)
    case .awaitingDemand(let value):
      state = .terminated
      return .end(Action(releasesDownstream: true, deliver: .result(value), ended: true))
    case .terminated:
      return .forward(nil)
    }
  }

  /// The downstream cancelled.
  mutating func cancel() -> Action {
    if case .awaitingSubscription = state, !cancelBeforeSubscriptionEnds {
      // Only noted: the subscription is taken when it comes (see the property).
      cancelled = true
      return Action(notedEarlyCancel: true)
    }
    // The logic hears of the end once: here, unless the end was delivered already.
    var action = Action(releasesDownstream: true, ended: pendingEnding != nil)
    switch state {
    case .awaitingSubscription:
      action.ended = true
    case .subscribed(let upstream):
      action.cancelUpstream = upstream
      action.ended = true
    case .awaitingDemand(let value):
      action.discarded = .result(value)
      action.ended = true
    case .terminated:
      break
    }
    if case .subscribed(let subscription) = other { action.cancelOther = subscription }
    if otherRole != nil { other = .done }
    if let pendingEnding { action.discarded = pendingEnding }
    cancelled = true
    state = .terminated
    pendingEnding = nil
    return action
  }
}
