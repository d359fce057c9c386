/// What makes one single-upstream operator different from the others: the value type an
/// ``OperatorDriver`` runs.
///
/// The driver does everything operators share (the upstream's subscription, the downstream,
/// demand, completion, cancellation and release: see ``OperatorStateMachine``); the logic only
/// says what to do, by returning an ``OperatorStep`` for each upstream value and an
/// ``OperatorEnding`` for the upstream's completion. `Publishers.TryMap.swift` shows the
/// shortest logic, `Publishers.Reduce.swift` a reducing one (see ``ReducingLogic``).
///
/// **Configuration and state.** A logic is immutable: its stored properties are the operator's
/// configuration (closures, counts, a scheduler), read on any thread. What changes as values
/// arrive is its ``State``, which the driver keeps and lends to ``receive(_:_:)`` and
/// ``receive(completion:_:)``. Those two are only ever called for upstream events, which are
/// serial, and never under a lock, so they may call user code and need no locking of their
/// own. The hooks (``request(_:from:)``, ``cancel(_:)``, ...) run on the downstream's threads,
/// also without a lock, and read configuration only.
///
/// Every requirement but ``name`` and ``receive(_:_:)`` has a default (``ending(for:)`` when
/// the operator's failure is the upstream's): a logic spells out only what differs from a
/// plain pass-through.
package protocol OperatorLogic {
  /// The upstream's values.
  associatedtype Input
  /// The upstream's failure.
  associatedtype UpstreamFailure: Error
  /// The operator's values.
  associatedtype Output
  /// The operator's failure.
  associatedtype Failure: Error
  /// What the operator remembers from one upstream value to the next (`Void` if nothing).
  associatedtype State = Void
  /// The failure of the second input (``otherInput``); `Never` when there is none.
  associatedtype OtherFailure: Error = Never

  /// A short name for `description` (`"TryMap"`, `"Reduce"`, ...).
  var name: String { get }

  /// The state before the first upstream value.
  var initialState: State { get }

  /// Demand the operator asks the upstream for on its own, when the upstream's subscription
  /// arrives, on top of what the downstream requested meanwhile (`dropFirst(n)`: `n`; the
  /// reducing operators: `.unlimited`). Default: none.
  var initialDemand: Subscribers.Demand { get }

  /// How the driver keeps track of the downstream's demand, for an operator that may end with
  /// an ``OperatorEnding/result(_:)`` (which waits for demand). Default: `.none`.
  var demandTracking: DemandTracking { get }

  /// Whether a cancel that comes before the upstream's subscription ends the operator (the
  /// subscription is cancelled when it arrives), or is only noted (the subscription is taken
  /// when it arrives and handed to the downstream, as if the cancel had not come). Only a
  /// caller that reached the driver some other way can cancel that early (the downstream gets
  /// the driver with the upstream's subscription); Combine's operators differ here, and each
  /// logic keeps the behaviour its operator had. Default: `true`.
  var cancelBeforeSubscriptionEnds: Bool { get }

  /// Whether an upstream value or completion, or a downstream request, that comes before the
  /// upstream's subscription is an API violation (a trap), as it is in Combine for its
  /// filtering operators (`tryFilter`, `tryCompactMap`, `removeDuplicates`, `prefix(while:)`
  /// and their `try` variants); otherwise (the default) it is ignored. A logic that traps
  /// also ends at a cancel before the subscription (``cancelBeforeSubscriptionEnds`` is not
  /// consulted).
  var trapsEventsBeforeSubscription: Bool { get }

  /// Whether an upstream completion that comes before the upstream's subscription ends the
  /// operator (the logic decides how, as for any completion, and the subscription is cancelled
  /// if it comes later), as in Combine for `scan`, `dropFirst`, `collect(_:)`, `encode`,
  /// `decode`, `print` and `handleEvents`; otherwise (the default) it is ignored.
  var endsOnCompletionBeforeSubscription: Bool { get }

  /// Whether a downstream request of zero (`.none`) is an API violation (a trap), as it is in
  /// Combine for `dropFirst`, `drop(while:)`, `collect(_:)` and `replaceEmpty`; otherwise (the
  /// default) it is passed on, or ignored where demand is tracked.
  var zeroDemandTraps: Bool { get }

  /// The role of the operator's second input, for the two `untilOutputFrom` operators
  /// (see ``OperatorDriver/start(upstream:other:)``); `nil` (the default) for the rest.
  var otherInput: OtherInputRole? { get }

  /// Whether the operator shows itself in a debugger, a playground or a `dump` as Combine's
  /// subscription of it does: the driver's ``name`` as description and playground value, and
  /// the ``mirrorChildren(_:_:)``. `false` for `prefix(untilOutputFrom:)`, whose Combine
  /// subscription customizes none of them: ``OperatorDriver/start(upstream:other:)`` then
  /// attaches ``UnreflectedDriver`` values in front of the driver, and the downstream gets one
  /// as its subscription. Default: `true`.
  var isReflected: Bool { get }

  /// Decides what to do with one upstream value.
  func receive(_ input: Input, _ state: inout State) -> OperatorStep<Output, Failure>

  /// Decides how to end when the upstream completes. Default: `.finished` is passed on, a
  /// failure ends as ``ending(for:)`` says.
  func receive(
    completion: Subscribers.Completion<UpstreamFailure>, _ state: inout State
  ) -> OperatorEnding<Output, Failure>

  /// How the upstream's failure ends the operator. Default, when the operator's failure is the
  /// upstream's: it is passed on.
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Output, Failure>

  /// What the second input's completion does: the completion to end with (`drop(untilOutputFrom:)`
  /// before the second input's value), or `nil` to ignore it (the default). Any thread.
  func otherCompleted(
    _ completion: Subscribers.Completion<OtherFailure>
  ) -> Subscribers.Completion<Failure>?

  // MARK: Hooks (any thread, no lock held; configuration only)

  /// The upstream's subscription was accepted; called before the downstream receives its own.
  func subscribed(to upstream: any Subscription)

  /// A second upstream subscription arrived, while the operator is connected
  /// (`whileConnected`) or after it ended; the driver cancels it after this returns.
  func rejected(_ subscription: any Subscription, whileConnected: Bool)

  /// The downstream requested `demand` before the upstream's subscription arrived (the driver
  /// keeps it for the subscription, when the downstream has its own). Default:
  /// ``request(_:from:)`` with no upstream.
  func requestedBeforeSubscription(_ demand: Subscribers.Demand)

  /// The downstream cancelled before the upstream's subscription arrived, and the cancel was
  /// only noted (``cancelBeforeSubscriptionEnds`` is `false`).
  func cancelledBeforeSubscription()

  /// Returns the demand to give back to the upstream for a value the downstream received and
  /// returned `demand` for (`collect(_:)` multiplies it). `isLive` says whether the operator is
  /// still connected (it takes the lock: call it only when needed).
  func returning(_ demand: Subscribers.Demand, isLive: () -> Bool) -> Subscribers.Demand

  /// Passes the downstream's request on to the upstream; `upstream` is `nil` once the operator
  /// ended (or before the upstream's subscription arrived: the driver keeps the demand for it).
  /// Default: `upstream?.request(demand)`.
  func request(_ demand: Subscribers.Demand, from upstream: (any Subscription)?)

  /// Passes the downstream's cancel on to the upstream (`nil` once the operator ended).
  /// Default: `upstream?.cancel()`.
  func cancel(_ upstream: (any Subscription)?)

  /// Called once, when the operator has ended: after its completion was delivered (or withheld
  /// because of a cancel), or after a cancel cut it short.
  func ended()

  /// The children of the driver's `customMirror`, as Combine's subscription of this operator
  /// shows them (see ``OperatorMirrorContext``). Computed only when a mirror is asked for.
  /// Default: none.
  func mirrorChildren(_ state: State, _ context: OperatorMirrorContext) -> [Mirror.Child]
}

extension OperatorLogic where State == Void {
  package var initialState: Void { () }
}

extension OperatorLogic where UpstreamFailure == Failure {
  package func ending(for failure: UpstreamFailure) -> OperatorEnding<Output, Failure> {
    .completion(.failure(failure))
  }
}

extension OperatorLogic {
  package var initialDemand: Subscribers.Demand { .none }

  package var demandTracking: DemandTracking { .none }

  package var cancelBeforeSubscriptionEnds: Bool { true }

  package var trapsEventsBeforeSubscription: Bool { false }

  package var zeroDemandTraps: Bool { false }

  package var endsOnCompletionBeforeSubscription: Bool { false }

  package var otherInput: OtherInputRole? { nil }

  package var isReflected: Bool { true }

  package func receive(
    completion: Subscribers.Completion<UpstreamFailure>, _ state: inout State
  ) -> OperatorEnding<Output, Failure> {
    switch completion {
    case .finished: .completion(.finished)
    case .failure(let failure): ending(for: failure)
    }
  }

  package func otherCompleted(
    _ completion: Subscribers.Completion<OtherFailure>
  ) -> Subscribers.Completion<Failure>? {
    nil
  }

  package func subscribed(to upstream: any Subscription) {}

  package func rejected(_ subscription: any Subscription, whileConnected: Bool) {}

  package func requestedBeforeSubscription(_ demand: Subscribers.Demand) {
    request(demand, from: nil)
  }

  package func cancelledBeforeSubscription() {}

  package func returning(_ demand: Subscribers.Demand, isLive: () -> Bool) -> Subscribers.Demand {
    demand
  }

  package func request(_ demand: Subscribers.Demand, from upstream: (any Subscription)?) {
    upstream?.request(demand)
  }

  package func cancel(_ upstream: (any Subscription)?) {
    upstream?.cancel()
  }

  package func ended() {}

  package func mirrorChildren(_ state: State, _ context: OperatorMirrorContext) -> [Mirror.Child] {
    []
  }
}

/// How an ``OperatorDriver`` keeps track of the downstream's demand (``OperatorLogic/demandTracking``).
package enum DemandTracking {
  /// Not at all: requests pass through, as they are.
  case none
  /// Whether anything was requested: enough for a result when no value went out before it
  /// (the reducing operators, `replaceEmpty`). Requests of zero are ignored.
  case requested
  /// What was requested and not received yet, for a result that follows values
  /// (`replaceError`). Requests of zero are ignored; counting takes the lock a second time for a
  /// value whose delivery returns demand.
  case outstanding
}
