/// The life of every single-upstream operator's subscription, written once: the rules the
/// operators share, as a value type whose transitions return what to do. An
/// ``OperatorDriver`` runs each transition under its lock and performs the returned action
/// (requests, cancels, deliveries) after releasing it; the operator-specific part is the
/// driver's ``OperatorLogic``. Nothing here calls out.
///
/// ## Subscription
/// The downstream receives the driver as its subscription when the upstream's subscription
/// arrives, or earlier, before the upstream is subscribed (`dropFirst`:
/// ``downstreamSubscribed()``); demand it requests before the upstream's subscription arrives
/// waits for it, and goes up with it. A second subscription, or one that arrives after the end
/// or a cancel, is cancelled.
///
/// ## Values and demand
/// Values are admitted only while connected: before the subscription, after the end and after
/// a cancel they are ignored (and ask for nothing). The downstream's requests go to the
/// upstream (through the logic, ``OperatorLogic/request(_:from:)``) and the demand it returns
/// for a value goes back as that value's return. When the logic may end with a final value
/// that waits for demand, the machine keeps track of the downstream's demand
/// (``OperatorLogic/demandTracking``, kept in ``DemandCount``): whether it asked for anything,
/// or what it asked for and has not received; requests of zero are then ignored.
///
/// ## Ending
/// The operator ends once, for one of its causes (``EndCause``): the upstream completed
/// (before its subscription too, for the logics that end on that), or the logic ended on a
/// value (the upstream is then cancelled). The ending is delivered at once; or, if it is a
/// result (``OperatorEnding/result(_:)``, with or without a value) and the downstream has not
/// asked for anything, when demand comes (`awaitingDemand`). A value ending
/// (``OperatorEnding/last(_:)``, ``OperatorEnding/result(_:)``) sends `.finished` after the
/// value unless the downstream cancelled from inside its `receive` (`cancelled`).
///
/// ## Cancellation and release
/// A cancel ends everything: the upstream is cancelled, a final value waiting for demand is
/// dropped, and nothing is delivered after it. A cancel that comes before the upstream's
/// subscription ends the operator too, or, for the logics whose ``MisusePolicy`` says so, is
/// only noted. The downstream is released when the completion is handed out or at the cancel;
/// the upstream's subscription when the operator ends.
///
/// ## Why the upstream's subscription is not in the state
/// An `any Subscription` is an opaque existential: a type that holds one is copied and destroyed
/// through value witnesses (calls into the runtime, with the types' metadata), even in
/// specialized code. Kept in ``upstream`` rather than in ``Phase`` and ``Action``, it leaves
/// those two plain values, which the driver copies freely: 2,200 instructions less per
/// `s.Scan` subscription.
@usableFromInline
struct OperatorStateMachine<Output, Failure: Error> {
  /// Where the operator is in its life.
  @usableFromInline
  enum Phase {
    /// Waiting for the upstream's subscription. `pending` is `nil` while the downstream has no
    /// subscription either (a request made then, by a caller that found the driver some other
    /// way, asks for nothing); once it has one, what it requested meanwhile, which goes up with
    /// the subscription.
    case awaitingSubscription(pending: Subscribers.Demand?)
    /// Connected to the upstream (its subscription is in ``OperatorStateMachine/upstream``).
    case subscribed
    /// Ended: the final value (or, `nil`, the `.finished` of an operator that ends without
    /// one) waits for the downstream's demand.
    case awaitingDemand(Output?)
    /// Completed, failed or cancelled: nothing more happens.
    case terminated
  }

  /// Where the operator is, as its mirror shows it (``OperatorMirrorContext/status``): the
  /// ``Phase``, with the upstream's subscription in `subscribed`. Only the mirror builds one.
  @usableFromInline
  enum State {
    /// See ``Phase/awaitingSubscription(pending:)``.
    case awaitingSubscription(pending: Subscribers.Demand?)
    /// Connected to this upstream's subscription.
    case subscribed(any Subscription)
    /// See ``Phase/awaitingDemand(_:)``.
    case awaitingDemand(Output?)
    /// See ``Phase/terminated``.
    case terminated
  }

  /// What the machine knows of the downstream's demand (``OperatorLogic/demandTracking``).
  @usableFromInline
  enum DemandCount {
    /// Nothing: requests pass through.
    case untracked
    /// Whether the downstream asked for anything.
    case requested(Bool)
    /// What the downstream asked for and has not received yet (counted from the upstream's
    /// subscription on).
    case outstanding(Subscribers.Demand)

    @inlinable
    init(_ tracking: DemandTracking) {
      switch tracking {
      case .none: self = .untracked
      case .requested: self = .requested(false)
      case .outstanding: self = .outstanding(.none)
      }
    }
  }

  /// Why the operator ends.
  @usableFromInline
  enum EndCause: Equatable {
    /// The logic ended on an upstream value: the upstream is cancelled.
    case value
    /// The upstream completed.
    case upstreamCompletion
    /// The upstream completed before sending its subscription (a misbehaving upstream; only
    /// for the logics that end on it, ``MisusePolicy/earlyCompletionEnds``).
    case upstreamCompletionBeforeSubscription
  }

  /// What to do with the upstream's subscription once the lock is released.
  @usableFromInline
  enum SubscriptionAction {
    /// Cancel it: the operator is connected already (`whileConnected`), or ended.
    case cancel(whileConnected: Bool)
    /// Keep it: hand the driver to the downstream (unless it has it already), then request
    /// `demand` (plus the logic's initial demand) from the upstream.
    case start(handToDownstream: Bool, demand: Subscribers.Demand)
  }

  /// What to do with an upstream value.
  @usableFromInline
  enum Admission {
    /// Nothing: the operator is not connected (after the end).
    case ignore
    /// Nothing, or an API violation (``MisusePolicy/trapsEarlyEvents``): the upstream's
    /// subscription has not arrived yet.
    case early
    /// Run the logic on it.
    case deliver
  }

  /// What to do with a downstream request.
  @usableFromInline
  enum RequestAction {
    /// Nothing.
    case ignore
    /// Nothing yet: the upstream's subscription has not arrived (the demand waits for it if the
    /// downstream has its subscription).
    case beforeSubscription
    /// Pass it on to ``OperatorStateMachine/upstream`` (`nil`: none is connected, the logic may
    /// still log it).
    case forward
    /// Deliver the final value that waited for demand.
    case end(Action)
  }

  /// What the driver does after a transition, once the lock is released, in this order.
  @usableFromInline
  struct Action {
    /// Cancel the upstream: the transition left its subscription in
    /// ``OperatorStateMachine/upstream`` for the driver to take, under the same lock.
    @usableFromInline
    var cancelsUpstream = false
    /// Take the downstream out of the driver (to deliver `deliver` to it, or to release it).
    @usableFromInline
    var releasesDownstream = false
    /// Deliver this ending to the downstream.
    @usableFromInline
    var deliver: OperatorEnding<Output, Failure>?
    /// The operator has ended: call the logic's ``OperatorLogic/ended()`` (after delivering).
    @usableFromInline
    var ended = false
    /// What a cancel dropped, released with the action, after the lock.
    @usableFromInline
    var discarded: OperatorEnding<Output, Failure>?
    /// A cancel before the upstream's subscription was only noted
    /// (``MisusePolicy/earlyCancelEnds`` is `false`).
    @usableFromInline
    var notedEarlyCancel = false

    @inlinable
    init(
      cancelsUpstream: Bool = false, releasesDownstream: Bool = false,
      deliver: OperatorEnding<Output, Failure>? = nil, ended: Bool = false,
      discarded: OperatorEnding<Output, Failure>? = nil, notedEarlyCancel: Bool = false
    ) {
      self.cancelsUpstream = cancelsUpstream
      self.releasesDownstream = releasesDownstream
      self.deliver = deliver
      self.ended = ended
      self.discarded = discarded
      self.notedEarlyCancel = notedEarlyCancel
    }
  }

  @usableFromInline
  var state = Phase.awaitingSubscription(pending: nil)
  /// The upstream's subscription while ``Phase/subscribed``. A transition that leaves that state
  /// drops it, unless its action cancels the upstream (``Action/cancelsUpstream``): then the
  /// driver takes it out in the same critical section, to cancel it after the lock.
  @usableFromInline
  var upstream: (any Subscription)?
  /// Whether the downstream cancelled: after the end too, and before the subscription when the
  /// cancel was only noted (a value ending then sends no `.finished` after its value).
  @usableFromInline
  var cancelled = false
  @usableFromInline
  var demand: DemandCount
  /// See ``MisusePolicy/earlyCancelEnds``.
  @usableFromInline
  let earlyCancelEnds: Bool

  @inlinable
  init(demandTracking: DemandTracking, earlyCancelEnds: Bool) {
    demand = DemandCount(demandTracking)
    self.earlyCancelEnds = earlyCancelEnds
  }

  /// The state, for the mirror.
  var status: State {
    switch state {
    case .awaitingSubscription(let pending): .awaitingSubscription(pending: pending)
    case .subscribed: upstream.map { .subscribed($0) } ?? .terminated
    case .awaitingDemand(let value): .awaitingDemand(value)
    case .terminated: .terminated
    }
  }

  /// Whether the operator has not ended yet.
  @inlinable
  var isLive: Bool {
    switch state {
    case .awaitingSubscription, .subscribed: true
    case .awaitingDemand, .terminated: false
    }
  }

  /// Whether a final value may go out now.
  @inlinable
  var hasDemandForResult: Bool {
    switch demand {
    case .untracked:
      // Only the logics that track demand end with a result (``OperatorEnding/result(_:)``).
      assertionFailure("a result ending needs a logic that tracks demand")
      return false
    case .requested(let requested): return requested
    case .outstanding(let outstanding): return outstanding > .none
    }
  }

  /// Whether the upstream's subscription has not arrived yet (and the operator has not ended).
  @inlinable
  var awaitsSubscription: Bool {
    if case .awaitingSubscription = state { return true }
    return false
  }

  /// Whether the operator is connected to the upstream.
  @inlinable
  var isSubscribed: Bool {
    if case .subscribed = state { return true }
    return false
  }

  // MARK: Upstream

  /// The downstream received the driver before the upstream's subscription arrived.
  @inlinable
  mutating func downstreamSubscribed() {
    guard case .awaitingSubscription(pending: nil) = state else {
      // Only ``OperatorDriver/start(downstreamFirst:)`` calls this, first thing.
      assertionFailure("the downstream was subscribed twice, or after the upstream")
      return
    }
    state = .awaitingSubscription(pending: Subscribers.Demand.none)
  }

  /// The upstream's subscription arrived.
  @inlinable
  mutating func receive(subscription: any Subscription) -> SubscriptionAction {
    guard case .awaitingSubscription(let pending) = state else {
      return .cancel(whileConnected: isSubscribed)
    }
    state = .subscribed
    upstream = subscription
    return .start(handToDownstream: pending == nil, demand: pending ?? .none)
  }

  /// An upstream value arrived.
  @inlinable
  mutating func admitValue() -> Admission {
    guard case .subscribed = state else { return awaitsSubscription ? .early : .ignore }
    if case .outstanding(let outstanding) = demand {
      // As in Combine (`replaceError`): a value the downstream did not ask for is the
      // upstream's misuse.
      checkAPI(
        outstanding > .none,
        "an upstream sent a value that was not requested. A publisher sends at most the demand"
          + " its subscriber asked for.")
      demand = .outstanding(outstanding - 1)
    }
    return .deliver
  }

  /// The downstream returned `demand` for a value (``DemandCount/outstanding(_:)`` only).
  @inlinable
  mutating func demandReturned(_ returned: Subscribers.Demand) {
    guard case .outstanding(let outstanding) = demand else {
      assertionFailure("returned demand is counted only when the logic tracks what is outstanding")
      return
    }
    demand = .outstanding(outstanding + returned)
  }

  /// Ends the operator with `ending`, once.
  @inlinable
  mutating func end(_ ending: OperatorEnding<Output, Failure>, cause: EndCause) -> Action {
    var action = Action()
    switch state {
    case .subscribed:
      // Only a misbehaving upstream, which completes on one thread while its subscription
      // arrives on another, ends an operator that is connected by an early completion.
      if cause != .upstreamCompletion {
        action.cancelsUpstream = true
      } else {
        upstream = nil
      }
    case .awaitingSubscription:
      // Only an early completion can end the operator before the upstream is connected.
      guard cause == .upstreamCompletionBeforeSubscription else { return action }
    case .awaitingDemand, .terminated:
      return action
    }
    // As in Combine, a result ending waits for demand even without a value: its `.finished`
    // goes out only once the downstream has asked for something.
    if case .result(let value) = ending, !hasDemandForResult {
      state = .awaitingDemand(value)
      return action
    }
    state = .terminated
    action.releasesDownstream = true
    action.deliver = ending
    action.ended = true
    return action
  }

  // MARK: Downstream

  /// The downstream requested `demand`.
  @inlinable
  mutating func request(_ requested: Subscribers.Demand) -> RequestAction {
    switch demand {
    case .untracked:
      break
    case .requested:
      guard requested > .none else { return .ignore }
      demand = .requested(true)
    case .outstanding(let outstanding):
      guard requested > .none else { return .ignore }
      if isSubscribed { demand = .outstanding(outstanding + requested) }
    }
    switch state {
    case .awaitingSubscription(let pending):
      // Only a downstream that has its subscription already can ask for values; a request
      // made before that (by a caller that found the driver some other way) asks for nothing.
      if let pending { state = .awaitingSubscription(pending: pending + requested) }
      return .beforeSubscription
    case .subscribed:
      return .forward
    case .awaitingDemand(let value):
      state = .terminated
      return .end(Action(releasesDownstream: true, deliver: .result(value), ended: true))
    case .terminated:
      return .forward
    }
  }

  /// The downstream cancelled.
  @inlinable
  mutating func cancel() -> Action {
    if case .awaitingSubscription = state, !earlyCancelEnds {
      // Only noted: the subscription is taken when it comes (see ``MisusePolicy``).
      cancelled = true
      return Action(notedEarlyCancel: true)
    }
    // The logic hears of the end once: here, unless the end was delivered already.
    var action = Action(releasesDownstream: true)
    switch state {
    case .awaitingSubscription:
      action.ended = true
    case .subscribed:
      action.cancelsUpstream = true
      action.ended = true
    case .awaitingDemand(let value):
      action.discarded = .result(value)
      action.ended = true
    case .terminated:
      break
    }
    cancelled = true
    state = .terminated
    return action
  }
}
