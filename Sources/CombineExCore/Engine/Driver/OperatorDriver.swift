/// The subscription of every operator with one upstream that keeps state or may end early: it
/// sits between the upstream and the downstream, runs the operator's ``OperatorLogic`` on the
/// upstream's events, and does everything else once for all of them, by running an
/// ``OperatorStateMachine`` under its lock and performing what the transitions return after
/// releasing it.
///
/// So every operator it runs gets the same rules (ARCHITECTURE.md section 1), from one place:
/// at most one completion, and nothing after it or after `cancel` (even a cancel made from
/// inside `receive`); ending early cancels the upstream first; a cancel reaches the upstream
/// and releases the downstream; a misbehaving upstream (values before its subscription or
/// after its completion, a second subscription) changes nothing; no lock is held while calling
/// the logic, the downstream or the upstream. Per value it takes its lock once (twice when the
/// logic tracks outstanding demand and the downstream returns some).
///
/// Publishers subscribe it with `upstream.subscribe(OperatorDriver(logic, downstream:))`;
/// operators whose downstream receives its subscription before the upstream is subscribed
/// (`dropFirst`) use ``start(downstreamFirst:)``. It has one input: the two `untilOutputFrom`
/// operators, which have a second, run on storages of their own
/// (`PrefixUntilOutputStorage`, `DropUntilOutputStorage`).
///
/// Package-visible, with ``OperatorLogic``: CombineEx's `attemptMap` and `propertyMap` run on
/// it.
// @unchecked Sendable: `storage` (the machine and the downstream) is guarded by `lock`; `state`
// is touched only by upstream events, which are serial; `logic` is immutable.
@usableFromInline
package final class OperatorDriver<Logic: OperatorLogic, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  @usableFromInline
  package typealias Input = Logic.Input
  @usableFromInline
  package typealias Failure = Logic.UpstreamFailure
  @usableFromInline
  typealias Machine = OperatorStateMachine<Logic.Output, Logic.Failure>

  /// The entry points of the events, made where the driver is made. An upstream or a downstream
  /// that calls the driver through its protocol (`any Subscription`, or a publisher that is not
  /// specialized for this driver) reaches the driver's unspecialized code, where every generic
  /// type it touches (`Optional<Downstream>`, the machine's actions, the steps) costs a metadata
  /// lookup in the runtime: about 20,000 instructions per subscription. These closures are
  /// written in ``init(_:downstream:)``, which is inlined and specialized at the operator's
  /// `receive(subscriber:)`, so they are the specialized code; the protocol methods only call
  /// them. They capture nothing (no allocation).
  @usableFromInline
  let entries: Entries

  @usableFromInline
  let lock = Lock()
  /// The machine and the downstream, guarded by `lock`, in one stored property: Swift never
  /// specializes a generic class's deinitializer, which looks up in the runtime's metadata
  /// cache, at every subscription, the type of every stored property that is generic but not
  /// one of the class's parameters or their associated types. `Optional<Downstream>` and the
  /// machine cost two lookups; this struct costs one (`s.Scan` 7,766 -> 7,002 instructions per
  /// subscription). The runtime's exclusivity check, which would cost a call at every access,
  /// is off: every access is under `lock`.
  @exclusivity(unchecked)
  @usableFromInline
  var storage: Storage
  @usableFromInline
  let logic: Logic
  /// The logic's state. Upstream events are serial, but one may nest inside another (the
  /// re-entry rule, in ``OperatorLogic``'s header): a nested call makes a second `inout` access
  /// to `state` while the first is still open, which the runtime's exclusivity check would stop
  /// the program for, so it is off. (In a cell that is never empty: an empty stored property
  /// shares its address with its neighbour, and the thread sanitizer reports an access to it
  /// as a race with that neighbour. Not in ``storage`` either: the sanitizer sees an `inout`
  /// access to a part of a stored property as one to the whole, so an upstream event on one
  /// thread and a request under the lock on another would race there.)
  @exclusivity(unchecked)
  @usableFromInline
  var state: StateCell<Logic.State>

  /// See ``storage``.
  @usableFromInline
  struct Storage {
    @usableFromInline
    var machine: Machine
    /// Released when the completion is handed out or the downstream cancels.
    @usableFromInline
    var downstream: Downstream?

    @inlinable
    init(machine: Machine, downstream: Downstream) {
      self.machine = machine
      self.downstream = downstream
    }
  }

  @inlinable
  package init(_ logic: Logic, downstream: Downstream) {
    self.logic = logic
    storage = Storage(
      machine: Machine(
        demandTracking: logic.demandTracking, earlyCancelEnds: logic.misusePolicy.earlyCancelEnds),
      downstream: downstream)
    state = StateCell(value: logic.initialState)
    entries = Entries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
  }

  /// See ``entries``.
  @usableFromInline
  typealias Entries = SubscriberEntries<OperatorDriver, Input, Failure>

  @usableFromInline
  package var description: String { logic.name }

  // MARK: Starting

  /// Hands the downstream its subscription, then subscribes the driver to `upstream`. Demand
  /// requested before the upstream's subscription arrives waits for it.
  @inlinable
  package func start<Upstream: Publisher>(downstreamFirst upstream: Upstream)
  where Upstream.Output == Input, Upstream.Failure == Failure {
    subscribeDownstream()
    // Subscribed even after a cancel from inside `receive(subscription:)`: the upstream's
    // subscription is then cancelled as soon as it arrives.
    upstream.subscribe(self)
  }

  @inlinable
  func subscribeDownstream() {
    let downstream = lock.withLock { () -> Downstream? in
      storage.machine.downstreamSubscribed()
      return storage.downstream
    }
    downstream?.receive(subscription: self)
  }

  // MARK: Subscriber (upstream side)

  @inlinable
  package func receive(subscription: any Subscription) {
    entries.subscription(self, subscription)
  }

  @inlinable
  package func receive(_ input: Input) -> Subscribers.Demand {
    entries.value(self, input)
  }

  @inlinable
  package func receive(completion: Subscribers.Completion<Failure>) {
    entries.completion(self, completion)
  }

  @inlinable
  func handle(subscription: any Subscription) {
    let (action, downstream) = lock.withLock {
      (storage.machine.receive(subscription: subscription), storage.downstream)
    }
    switch action {
    case .cancel(let whileConnected):
      logic.rejected(subscription, whileConnected: whileConnected)
      subscription.cancel()
    case .start(let handToDownstream, let demand):
      logic.subscribed(to: subscription)
      if handToDownstream { downstream?.receive(subscription: self) }
      let total = demand + logic.initialDemand
      if total > .none { subscription.request(total) }
    }
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    let (admission, downstream) = lock.withLock {
      (storage.machine.admitValue(), storage.downstream)
    }
    switch admission {
    case .ignore: return .none
    case .early:
      if logic.misusePolicy.trapsEarlyEvents { violation("sent a value") }
      return .none
    case .deliver: break
    }
    guard let downstream else { return .none }
    return perform(logic.receive(input, &state.value), to: downstream)
  }

  /// Performs the logic's step for a value; returns the demand to give back to the upstream.
  @inlinable
  func perform(
    _ step: OperatorStep<Logic.Output, Logic.Failure>, to downstream: Downstream
  ) -> Subscribers.Demand {
    switch step {
    case .emit(let output):
      let demand = downstream.receive(output)
      if logic.demandTracking == .outstanding, demand > .none {
        lock.withLock { storage.machine.demandReturned(demand) }
      }
      return logic.returning(demand) { lock.withLock { storage.machine.isSubscribed } }
    case .skip:
      return .max(1)
    case .consume:
      return .none
    case .end(let ending):
      run { $0.end(ending, cause: .value) }
      return .none
    }
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    let (subscribed, early) = lock.withLock {
      (storage.machine.isSubscribed, storage.machine.awaitsSubscription)
    }
    guard subscribed else {
      guard early else { return }
      if logic.misusePolicy.trapsEarlyEvents { violation("sent a completion") }
      if logic.misusePolicy.earlyCompletionEnds {
        let ending = logic.receive(completion: completion, &state.value)
        run { $0.end(ending, cause: .upstreamCompletionBeforeSubscription) }
      }
      return
    }
    let ending = logic.receive(completion: completion, &state.value)
    run { $0.end(ending, cause: .upstreamCompletion) }
  }

  // MARK: Subscription (downstream side)

  @inlinable
  package func request(_ demand: Subscribers.Demand) {
    entries.request(self, demand)
  }

  @inlinable
  package func cancel() {
    entries.cancel(self)
  }

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    if logic.misusePolicy.zeroDemandTraps, demand == .none {
      apiViolation("\(logic.name) was asked for zero values. A request must be for one or more.")
    }
    // The upstream to forward to (`nil` once the operator ended: the logic still hears of the
    // request), or the downstream that a final value waiting for this demand goes to.
    let (request, upstream, downstream) = lock.withLock {
      () -> (Machine.RequestAction, (any Subscription)?, Downstream?) in
      let request = storage.machine.request(demand)
      switch request {
      case .forward:
        return (request, storage.machine.upstream, nil)
      case .end(let action) where action.releasesDownstream:
        defer { storage.downstream = nil }
        return (request, nil, storage.downstream)
      case .ignore, .beforeSubscription, .end:
        return (request, nil, nil)
      }
    }
    switch request {
    case .ignore:
      return
    case .beforeSubscription:
      if logic.misusePolicy.trapsEarlyEvents {
        apiViolation(
          "\(logic.name) was asked for values before its upstream's subscription arrived. Only"
            + " the subscriber it hands its subscription to may request.")
      }
      logic.requestedBeforeSubscription(demand)
    case .forward:
      logic.request(demand, from: upstream)
    case .end(let action):
      perform(action, to: downstream, cancelling: nil)
    }
  }

  @inlinable
  func handleCancel() {
    let (action, released, upstream) = transition { $0.cancel() }
    if action.notedEarlyCancel { logic.cancelledBeforeSubscription() }
    // The logic passes the cancel on (and may observe it).
    logic.cancel(upstream)
    if action.ended { logic.ended() }
    // The downstream and whatever the cancel dropped are released here, after the lock.
    _ = released
  }

  /// An upstream event before the upstream's subscription, for a logic that traps on it.
  @usableFromInline
  func violation(_ event: String) -> Never {
    apiViolation(
      "the upstream of \(logic.name) \(event) before its subscription. A publisher sends"
        + " receive(subscription:) first.")
  }

  // MARK: Performing actions (never under the lock)

  /// Runs `body` on the machine under the lock; returns its action, the downstream if the
  /// action releases it, and the upstream's subscription if the action cancels it (both taken
  /// out of the driver).
  @inlinable
  func transition(
    _ body: (inout Machine) -> Machine.Action
  ) -> (Machine.Action, Downstream?, (any Subscription)?) {
    lock.withLock {
      let action = body(&storage.machine)
      let upstream = action.cancelsUpstream ? storage.machine.upstream.take() : nil
      guard action.releasesDownstream else { return (action, nil, upstream) }
      defer { storage.downstream = nil }
      return (action, storage.downstream, upstream)
    }
  }

  /// Runs a transition and performs its action.
  @inlinable
  func run(_ body: (inout Machine) -> Machine.Action) {
    let (action, downstream, upstream) = transition(body)
    perform(action, to: downstream, cancelling: upstream)
  }

  /// Performs a transition's action: cancels first, then the delivery.
  @inlinable
  func perform(
    _ action: Machine.Action, to downstream: Downstream?, cancelling upstream: (any Subscription)?
  ) {
    upstream?.cancel()
    if let ending = action.deliver, let downstream { deliver(ending, to: downstream) }
    if action.ended { logic.ended() }
  }

  /// Delivers the operator's end: a value ending sends `.finished` after the value unless the
  /// downstream cancelled from inside its `receive`.
  @inlinable
  func deliver(
    _ ending: OperatorEnding<Logic.Output, Logic.Failure>, to downstream: Downstream
  ) {
    switch ending {
    case .completion(let completion):
      downstream.receive(completion: completion)
    case .last(let output), .result(.some(let output)):
      _ = downstream.receive(output)
      if lock.withLock({ storage.machine.cancelled }) { return }
      downstream.receive(completion: .finished)
    case .result(.none):
      downstream.receive(completion: .finished)
    }
  }
}

/// An ``OperatorDriver``'s logic state, stored with one more byte so that it is never empty.
@usableFromInline
struct StateCell<Value> {
  @usableFromInline
  var value: Value
  @usableFromInline
  let nonEmpty: UInt8 = 0

  @inlinable
  init(value: Value) {
    self.value = value
  }
}

// What Combine shows of an operator's subscription in a debugger, a playground or a `dump`:
// the name as the playground value, and the children the logic lists, computed on demand.
extension OperatorDriver: CustomReflectable, CustomPlaygroundDisplayConvertible {
  @usableFromInline
  package var customMirror: Mirror {
    let (status, live, downstream, upstream) = lock.withLock {
      (storage.machine.status, storage.machine.isLive, storage.downstream, storage.machine.upstream)
    }
    let context = OperatorMirrorContext(
      downstream: downstream.map { $0 as Any } ?? downstream as Any,
      upstream: upstream as Any, status: status, ended: !live)
    // The logic's state as it is now, read without the lock (upstream events, which own it,
    // may be changing it on another thread): a debugging view, as Combine's is.
    return Mirror(self, children: logic.mirrorChildren(state.value, context))
  }

  @usableFromInline
  package var playgroundDescription: Any { description }
}
