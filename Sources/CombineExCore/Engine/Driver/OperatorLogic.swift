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
/// **Re-entry: the two `receive` calls may nest.** Upstream events are serial, but not always
/// one after another: a closure of the logic (`scan`'s, `handleEvents`' `receiveOutput`) or the
/// downstream may send into the operator's own upstream (a subject), which calls the driver
/// again, on the same thread, before the first call has returned, as Combine's operators are
/// called too. The nested call runs at once, to the end, on the one ``State``: it sees the
/// state as the outer call has left it so far, and the outer call then goes on from where it
/// was, over what the nested call wrote. So `scan(0, +)` whose closure sends 10 into its own
/// upstream while adding 1 publishes 10 (0 + 10, nested), then 1 (0 + 1), and goes on from 1.
/// A logic that must keep what a nested call wrote updates its state before calling out. No
/// lock is involved (none is held during `receive`), so nesting never deadlocks;
/// `OperatorDriverTests` pins the rule.
///
/// Every requirement but ``name`` and ``receive(_:_:)`` has a default (``ending(for:)`` when
/// the operator's failure is the upstream's): a logic spells out only what differs from a
/// plain pass-through.
@usableFromInline
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

  /// What the operator does with a cancel, an upstream event or a request that comes before
  /// the upstream's subscription, and with a request of zero: the preset of the Combine
  /// operators it matches (see ``MisusePolicy``). Default: ``MisusePolicy/standard``.
  var misusePolicy: MisusePolicy { get }

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
  /// only noted (``MisusePolicy/earlyCancelEnds`` is `false`).
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
  @inlinable
  package var initialState: Void { () }
}

extension OperatorLogic where UpstreamFailure == Failure {
  @inlinable
  package func ending(for failure: UpstreamFailure) -> OperatorEnding<Output, Failure> {
    .completion(.failure(failure))
  }
}

extension OperatorLogic {
  @inlinable
  package var initialDemand: Subscribers.Demand { .none }

  @inlinable
  package var demandTracking: DemandTracking { .none }

  @inlinable
  package var misusePolicy: MisusePolicy { .standard }

  @inlinable
  package func receive(
    completion: Subscribers.Completion<UpstreamFailure>, _ state: inout State
  ) -> OperatorEnding<Output, Failure> {
    switch completion {
    case .finished: .completion(.finished)
    case .failure(let failure): ending(for: failure)
    }
  }

  @inlinable
  package func subscribed(to upstream: any Subscription) {}

  @inlinable
  package func rejected(_ subscription: any Subscription, whileConnected: Bool) {}

  @inlinable
  package func requestedBeforeSubscription(_ demand: Subscribers.Demand) {
    request(demand, from: nil)
  }

  @inlinable
  package func cancelledBeforeSubscription() {}

  @inlinable
  package func returning(_ demand: Subscribers.Demand, isLive: () -> Bool) -> Subscribers.Demand {
    demand
  }

  @inlinable
  package func request(_ demand: Subscribers.Demand, from upstream: (any Subscription)?) {
    upstream?.request(demand)
  }

  @inlinable
  package func cancel(_ upstream: (any Subscription)?) {
    upstream?.cancel()
  }

  @inlinable
  package func ended() {}

  @usableFromInline
  package func mirrorChildren(_ state: State, _ context: OperatorMirrorContext) -> [Mirror.Child] {
    []
  }
}

/// How an ``OperatorDriver`` keeps track of the downstream's demand (``OperatorLogic/demandTracking``).
@usableFromInline
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
