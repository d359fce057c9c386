/// The pure state of the operators that deliver the values of several inputs to one
/// downstream: `merge` and `Publishers.MergeMany` (a fixed set of inputs),
/// `flatMap(maxPublishers:)` (an input per upstream value, at most `maxPublishers` at once) and
/// `switchToLatest()` (an input per upstream value, each replacing the previous one).
///
/// ``MergeStorage`` owns one, runs its transitions under a lock, and performs the returned
/// ``Action`` (cancels, requests, a delivery) after releasing the lock. All the reasoning about
/// concurrency lives here, in code that never calls out.
///
/// ## Serial delivery: the deliverer role
/// Values can arrive from every input on every thread at once, but the downstream must receive
/// them one at a time, and no lock may be held while calling it. So at most one caller at a
/// time is the *deliverer* (`isDelivering`): a transition that returns a delivery (or, for an
/// arriving value, `true`) hands the caller that role; the caller delivers, reports back with
/// ``didDeliverWithNothingToDo(requesting:)`` or ``didDeliver(requesting:)``, and keeps
/// delivering what that returns until it returns no value. Values that arrive meanwhile,
/// from another thread or re-entrantly from inside the downstream's `receive`, go to `buffer`
/// and the deliverer picks them up; their senders return at once and never wait.
///
/// ## Demand
/// `demand` is what the downstream asked for and has not yet received. The *free demand* is
/// `demand` minus the values already buffered for it. `granted` is what an input was asked for
/// and still owes. How inputs are asked depends on the mode, as in Combine:
/// - `merge`: each input is granted up to the free demand. So an input is never asked for more
///   than the downstream asked for overall, and the buffer holds at most what the inputs were
///   granted.
/// - `switchToLatest`: the current input is granted the free demand when it is subscribed and
///   whatever the downstream asks for later; the demand the downstream returns for a value the
///   input's own `receive` delivered is returned from that `receive`. A value beyond the demand
///   is an API violation.
/// - `flatMap`: each input is asked for one value (`.unlimited` once the downstream's demand
///   is), and for one more each time one of its values is delivered: the input's `receive`
///   returns `.max(1)` when its value was delivered (or is buffered and covered by the
///   downstream's demand), and a value that waited in the buffer for demand is replaced by a
///   request of `.max(1)` when it is delivered. So the buffer holds at most about one value
///   per input.
/// With `.unlimited` demand every input is asked for `.unlimited` once and values only queue
/// while another delivery is in progress.
///
/// ## Completion
/// A failure of any input or of the upstream ends the merge at once: every other input (and the
/// upstream) is cancelled, and the failure is delivered as soon as the current delivery (if
/// any) returns, after the values that arrived before it and are covered by the downstream's
/// demand. Those are values that came in while a delivery was in progress (from another thread,
/// or from inside `receive`); delivering them keeps the outcome independent of that timing (an
/// input that sends a value and then fails, from inside a `receive` that asked for more, would
/// otherwise lose the value). Values still waiting for demand are dropped. `.finished` waits
/// until the upstream and every input finished and every buffered value was delivered.
@usableFromInline
struct MergeStateMachine<Output, Failure: Error> {
  /// Where the merge is in its life (see ``MergeState``).
  @usableFromInline
  typealias State = MergeState
  /// Where the inputs come from (see ``MergeMode``).
  @usableFromInline
  typealias Mode = MergeMode
  /// One input publisher (see ``MergeInputState``).
  @usableFromInline
  typealias Input = MergeInputState

  /// Something for the deliverer to send downstream.
  @usableFromInline
  enum Delivery {
    /// A value; the deliverer reports back with ``didDeliver(requesting:)`` afterwards.
    case value(Output)
    /// The successful completion; nothing follows.
    case finished
    /// The failure; nothing follows.
    case failure(Failure)
  }

  /// What happened to a value an input sent (see ``receive(_:fromInput:)``).
  @usableFromInline
  enum Arrival {
    /// The caller became the deliverer and sends the value now, then reports back with
    /// ``didDeliverFirst(requesting:fromInput:)`` (flatMap, switchToLatest) or
    /// ``didDeliver(requesting:)``.
    case deliver
    /// The value was buffered; the input's `receive` returns this demand.
    case buffered(Subscribers.Demand)
    /// The value was dropped (the merge is over, or the input was replaced).
    case dropped
    /// The input sent a value beyond the downstream's demand (switchToLatest): an API
    /// violation.
    case unwanted
  }

  /// What the storage does after a transition, once the lock is released, in this order.
  @usableFromInline
  struct Action {
    @inlinable
    init(
      cancel: [MergeSubscription] = [],
      request: [(subscription: MergeSubscription, demand: Subscribers.Demand)] = [],
      deliver: Delivery? = nil
    ) {
      self.cancel = cancel
      self.request = request
      self.deliver = deliver
    }

    /// What the input whose value was just delivered returns from its `receive` (see
    /// ``didDeliverFirst(requesting:fromInput:)``).
    @usableFromInline
    var returned = Subscribers.Demand.none

    /// Subscriptions to cancel.
    @usableFromInline
    var cancel: [MergeSubscription] = []
    /// Demand to request from inputs or from the upstream.
    @usableFromInline
    var request: [(subscription: MergeSubscription, demand: Subscribers.Demand)] = []
    /// If set, the caller is now the deliverer and sends this downstream.
    @usableFromInline
    var deliver: Delivery?
  }

  @usableFromInline
  var state = State.active
  /// The failure a `failing` merge delivers next: set exactly while `state` is `failing`
  /// (kept beside the state, not in it: ``MergeState`` has no payload, so that the check made
  /// for every value stays a comparison; ``assertInvariants()`` checks the pairing).
  @usableFromInline
  var pendingFailure: Failure?
  @usableFromInline
  let mode: Mode
  /// `mode` without its payload, for the checks made for every value.
  @usableFromInline
  let kind: MergeKind
  /// What the downstream asked for and has not received yet.
  @usableFromInline
  var demand = Subscribers.Demand.none
  /// Values received and not yet delivered, oldest first.
  @usableFromInline
  var buffer = ValueQueue<Output>()
  /// flatMap only, in step with `buffer`: for each buffered value, the input to ask for one
  /// more value when it is delivered, or -1 if that input was already asked (its `receive`
  /// returned `.max(1)`, the value being covered by the downstream's demand).
  @usableFromInline
  var bufferSources = ValueQueue<Int>()
  /// Whether some caller holds the deliverer role.
  @usableFromInline
  var isDelivering = false
  /// The live inputs, in the order they were added (so that requests and cancels go out in a
  /// predictable order). Identifiers are never reused, so a late event from a removed input is
  /// recognised and ignored.
  @usableFromInline
  var inputs = MergeInputList()
  @usableFromInline
  var nextInputID = 0
  /// The upstream's subscription (flatMap and switchToLatest), until it completes.
  @usableFromInline
  var upstream: MergeSubscription?
  /// Whether the upstream finished (always true for a fixed merge).
  @usableFromInline
  var upstreamFinished = false

  @inlinable
  init(mode: Mode) {
    self.mode = mode
    switch mode {
    case .fixed: kind = .fixed
    case .flatMap: kind = .flatMap
    case .switchToLatest: kind = .switchToLatest
    }
    if case .fixed(let count) = mode {
      upstreamFinished = true
      inputs = MergeInputList(count: count)
      nextInputID = count
    }
  }

  /// Whether the merge still accepts inputs and demand.
  @inlinable
  var isActive: Bool {
    if case .active = state { return true }
    return false
  }

  /// Finishes a merge of no inputs (an empty `MergeMany`) at once; otherwise does nothing.
  @inlinable
  mutating func start() -> Action {
    var action = Action()
    finishIfDone(&action)
    return action
  }

  // MARK: Downstream

  /// The downstream asked for more values.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> Action {
    var action = Action()
    switch state {
    case .active, .finishing:
      addDemand(more, &action)
      if !isDelivering { action.deliver = nextDelivery(&action) }
    case .failing:
      // The deliverer is still sending the values that came before the failure.
      demand += more
    case .terminated:
      break
    }
    return action
  }

  /// The common case of ``didDeliver(requesting:)``, for every value: if nothing is waiting
  /// and `more` changes no input's grant, gives up the deliverer role and returns `true`.
  /// Otherwise changes nothing and returns `false`: the caller then calls `didDeliver`.
  @inlinable
  mutating func didDeliverWithNothingToDo(requesting more: Subscribers.Demand) -> Bool {
    guard isActive, buffer.isEmpty, more == .none || demand == .unlimited else { return false }
    isDelivering = false
    return true
  }

  /// The deliverer delivered a value and the downstream asked for `more`; returns what the
  /// deliverer does next (if `deliver` is unset, it gave up the role).
  @inlinable
  mutating func didDeliver(requesting more: Subscribers.Demand) -> Action {
    var action = Action()
    switch state {
    case .active, .finishing:
      if more > 0 { addDemand(more, &action) }
    case .failing:
      demand += more  // For the values that came before the failure; inputs are cancelled.
    case .terminated:
      break
    }
    action.deliver = nextDelivery(&action)
    return action
  }

  /// The common case of ``didDeliverFirst(requesting:fromInput:)``: if nothing is waiting and
  /// `more` changes no input's grant, gives up the deliverer role and returns what the input's
  /// `receive` returns. Otherwise changes nothing and returns `nil`: the caller then calls
  /// `didDeliverFirst`.
  @inlinable
  mutating func didDeliverFirstWithNothingToDo(
    requesting more: Subscribers.Demand, fromInput id: Int
  ) -> Subscribers.Demand? {
    guard isActive, buffer.isEmpty else { return nil }
    if demand == .unlimited {
      // Every input's grant is unlimited already.
      isDelivering = false
      return kind == .switchToLatest ? more : .none
    }
    guard more == .none else { return nil }
    isDelivering = false
    guard kind == .flatMap, let index = index(of: id), inputs[index].granted != .unlimited else {
      return Subscribers.Demand.none
    }
    inputs.update(at: index) { $0.granted += 1 }
    return .max(1)
  }

  /// The deliverer delivered the value that its own input sent (``Arrival/deliver``) and the
  /// downstream asked for `more`: as ``didDeliver(requesting:)``, and sets what that input's
  /// `receive` returns (``Action/returned``): `.max(1)` for flatMap (unless the input was asked
  /// for `.unlimited`), `more` for switchToLatest (then counted as granted to the input).
  @inlinable
  mutating func didDeliverFirst(requesting more: Subscribers.Demand, fromInput id: Int) -> Action {
    guard isActive, let index = index(of: id) else { return didDeliver(requesting: more) }
    var returned = Subscribers.Demand.none
    switch mode {
    case .fixed:
      break
    case .flatMap:
      if inputs[index].granted != .unlimited {
        inputs.update(at: index) { $0.granted += 1 }
        returned = .max(1)
      }
    case .switchToLatest:
      inputs.update(at: index) { $0.granted += more }
      returned = more
    }
    var action = didDeliver(requesting: more)
    action.returned = returned
    return action
  }

  /// The downstream cancelled: returns the subscriptions to cancel.
  @inlinable
  mutating func cancel() -> [MergeSubscription] {
    switch state {
    case .active, .finishing:
      state = .terminated
      return releaseEverything()
    case .failing:
      state = .terminated  // Everything was already cancelled; the failure is not delivered.
      pendingFailure = nil
      clearBuffer()
      assertInvariants()
      return []
    case .terminated:
      return []
    }
  }

  // MARK: Inputs

  /// Registers a new input for a value of the upstream; returns its identifier and, for
  /// switchToLatest, the subscription of the input it replaces (to cancel). Returns `nil` once
  /// the merge is over: the new publisher is then not subscribed.
  @inlinable
  mutating func addInput() -> (id: Int, replaced: [MergeSubscription])? {
    guard isActive else { return nil }
    var replaced: [MergeSubscription] = []
    if case .switchToLatest = mode {
      replaced = inputs.subscriptions
      inputs.removeAll()
    }
    let id = nextInputID
    nextInputID += 1
    inputs.append(Input(id: id))
    return (id, replaced)
  }

  /// An input's subscription arrived: it is granted the free demand (flatMap: one value, or
  /// `.unlimited` if the downstream's demand is). Returns what to do with the subscription (a
  /// reply, not an ``Action``: see ``MergeSubscriptionReply``).
  @inlinable
  mutating func receive(
    subscription: MergeSubscription, forInput id: Int
  ) -> MergeSubscriptionReply {
    guard isActive, let index = index(of: id), inputs[index].subscription == nil else {
      return .cancel
    }
    inputs.update(at: index) { $0.subscription = subscription }
    if case .flatMap = mode {
      let grant: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
      inputs.update(at: index) { $0.granted = grant }
      return .request(grant)
    }
    let free = freeDemand
    guard free > 0 else { return .keep }
    inputs.update(at: index) { $0.granted = free }
    return .request(free)
  }

  /// An input delivered a value: returns ``Arrival/deliver`` if the caller became the
  /// deliverer and must send it now; otherwise the value was buffered, dropped (the merge is
  /// over, or the input was replaced) or is unwanted (switchToLatest, beyond the demand).
  @inlinable
  mutating func receive(_ value: Output, fromInput id: Int) -> Arrival {
    guard isActive, let index = index(of: id) else { return .dropped }
    if inputs[index].granted != .unlimited { inputs.update(at: index) { $0.granted -= 1 } }
    if !isDelivering, demand > 0 {
      // Not delivering with demand left means the buffer is empty: nothing overtakes it.
      demand -= 1
      isDelivering = true
      return .deliver
    }
    if kind == .switchToLatest, freeDemand == .none { return .unwanted }
    guard kind == .flatMap else {
      buffer.append(value)
      return .buffered(.none)
    }
    // A value covered by the downstream's demand is as good as delivered: its input is asked
    // for one more now (as Combine does after delivering it, from inside `receive`).
    let covered = freeDemand > 0
    buffer.append(value)
    if inputs[index].granted == .unlimited {
      bufferSources.append(-1)
      return .buffered(.none)
    }
    bufferSources.append(covered ? -1 : id)
    assertInvariants()
    guard covered else { return .buffered(.none) }
    inputs.update(at: index) { $0.granted += 1 }
    return .buffered(.max(1))
  }

  /// An input completed. Returns `nil` if it completed before its subscription arrived and
  /// the mode forbids that (switchToLatest, as in Combine: an API violation).
  @inlinable
  mutating func receive(
    completion: Subscribers.Completion<Failure>, fromInput id: Int
  ) -> Action? {
    guard isActive, let index = index(of: id) else { return Action() }
    if case .switchToLatest = mode, inputs[index].subscription == nil { return nil }
    inputs.remove(at: index)
    switch completion {
    case .failure(let failure):
      return fail(failure)
    case .finished:
      var action = Action()
      if case .flatMap(let maxPublishers) = mode, maxPublishers != .unlimited, let upstream {
        action.request = [(upstream, .max(1))]  // Room for one more input.
      }
      finishIfDone(&action)
      return action
    }
  }

  // MARK: Upstream (flatMap, switchToLatest)

  /// The upstream's subscription arrived: it is asked for `maxPublishers` values (flatMap;
  /// even zero, as in Combine) or for every value (switchToLatest). Returns what to do with
  /// the subscription (see ``MergeSubscriptionReply``).
  @inlinable
  mutating func receiveUpstream(subscription: MergeSubscription) -> MergeSubscriptionReply {
    guard isActive, upstream == nil, !upstreamFinished else {
      return .cancel
    }
    upstream = subscription
    let initial: Subscribers.Demand
    switch mode {
    case .flatMap(let maxPublishers): initial = maxPublishers
    case .fixed, .switchToLatest: initial = .unlimited
    }
    return .request(initial)
  }

  /// The upstream completed.
  @inlinable
  mutating func receiveUpstream(completion: Subscribers.Completion<Failure>) -> Action {
    guard isActive, !upstreamFinished else { return Action() }
    upstream = nil
    switch completion {
    case .failure(let failure):
      upstreamFinished = true
      return fail(failure)
    case .finished:
      upstreamFinished = true
      var action = Action()
      finishIfDone(&action)
      return action
    }
  }

  // MARK: Helpers

  /// The position of input `id` in `inputs` (sorted by identifier), if it is live.
  ///
  /// Always inlined: the machine is loadable (no existentials in it), and a call copied all
  /// of it (a `memcpy` for every value of a merge).
  @inlinable
  @inline(__always)
  func index(of id: Int) -> Int? {
    // Inputs are usually removed oldest first (or not at all), so input `id` sits at its
    // distance from the first live one: check there before searching.
    if !inputs.isEmpty {
      let guess = id &- inputs[0].id
      if guess >= 0, guess < inputs.count, inputs[guess].id == id { return guess }
    }
    var low = 0
    var high = inputs.count
    while low < high {
      let middle = (low + high) / 2
      if inputs[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low < inputs.count && inputs[low].id == id ? low : nil
  }

  /// The demand not yet spoken for by buffered values.
  @inlinable
  var freeDemand: Subscribers.Demand { demand - buffer.count }

  /// Adds downstream demand and grants the free demand to every input that was granted less
  /// (flatMap: asks every input for `.unlimited` once the demand is).
  @inlinable
  mutating func addDemand(_ more: Subscribers.Demand, _ action: inout Action) {
    // Once demand is unlimited, every input already holds an unlimited grant.
    guard demand != .unlimited else { return }
    demand += more
    if case .flatMap = mode {
      guard demand == .unlimited else { return }
      inputs.updateEach { input in
        guard let subscription = input.subscription, input.granted != .unlimited else { return }
        action.request.append((subscription, .unlimited))
        input.granted = .unlimited
      }
      return
    }
    let free = freeDemand
    guard free > 0 else { return }
    inputs.updateEach { input in
      guard let subscription = input.subscription, input.granted < free else { return }
      action.request.append((subscription, free - input.granted))
      input.granted = free
    }
  }

  /// What the deliverer (or a caller that may become it) sends next; sets `isDelivering`
  /// accordingly. For flatMap, a value that waited for demand adds a request of one more value
  /// from its input to `action`.
  @inlinable
  mutating func nextDelivery(_ action: inout Action) -> Delivery? {
    assertInvariants()
    switch state {
    case .failing:
      if demand > 0, let value = buffer.popFirst() {
        _ = bufferSources.popFirst()  // Inputs are cancelled: nothing to ask for.
        demand -= 1
        isDelivering = true
        return .value(value)
      }
      state = .terminated
      isDelivering = false
      clearBuffer()
      defer { pendingFailure = nil }
      return pendingFailure.map { .failure($0) }
    case .terminated:
      isDelivering = false
      return nil
    case .active, .finishing:
      if demand > 0, let value = buffer.popFirst() {
        if let source = bufferSources.popFirst(), source >= 0, let index = index(of: source),
          let subscription = inputs[index].subscription,
          inputs[index].granted != .unlimited
        {
          inputs.update(at: index) { $0.granted += 1 }
          action.request.append((subscription, .max(1)))
        }
        demand -= 1
        isDelivering = true
        return .value(value)
      }
      isDelivering = false
      if case .finishing = state, buffer.isEmpty {
        state = .terminated
        return .finished
      }
      return nil
    }
  }

  /// Moves to `finishing` once the upstream and every input finished.
  @inlinable
  mutating func finishIfDone(_ action: inout Action) {
    guard isActive, upstreamFinished, inputs.isEmpty else { return }
    state = .finishing
    if !isDelivering { action.deliver = nextDelivery(&action) }
  }

  /// Ends the merge with a failure: cancels everything else and delivers the failure now or,
  /// if a delivery is in progress, once the deliverer has sent the buffered values the demand
  /// covers. (Without a delivery in progress, buffered values are waiting for demand: dropped.)
  @inlinable
  mutating func fail(_ failure: Failure) -> Action {
    var action = Action(cancel: releaseInputs())
    if isDelivering {
      state = .failing
      pendingFailure = failure
      assertInvariants()
    } else {
      clearBuffer()
      state = .terminated
      action.deliver = .failure(failure)
    }
    return action
  }

  /// Checks, in debug builds only (the benchmarks' release build compiles it out), the
  /// invariants kept by hand: `pendingFailure` is set exactly while `failing`, and
  /// `bufferSources` is in step with `buffer` (one entry per buffered value, for flatMap only).
  @inlinable
  func assertInvariants() {
    assert(
      (state == .failing) == (pendingFailure != nil),
      "a merge's pending failure is set exactly while it is failing")
    assert(
      bufferSources.count == (kind == .flatMap ? buffer.count : 0),
      "flatMap's buffer sources are in step with its buffer; other merges keep none")
  }

  /// Forgets every input, the upstream and the buffer; returns the subscriptions to cancel.
  @inlinable
  mutating func releaseEverything() -> [MergeSubscription] {
    clearBuffer()
    return releaseInputs()
  }

  /// Drops every buffered value.
  @inlinable
  mutating func clearBuffer() {
    buffer.removeAll()
    bufferSources.removeAll()
  }

  /// Forgets every input and the upstream; returns their subscriptions, to cancel.
  @inlinable
  mutating func releaseInputs() -> [MergeSubscription] {
    var subscriptions = inputs.subscriptions
    if let upstream { subscriptions.append(upstream) }
    inputs.removeAll()
    upstream = nil
    return subscriptions
  }
}

/// What a merge does with a subscription that just arrived, an input's or the upstream's
/// (``MergeStateMachine/receive(subscription:forInput:)``,
/// ``MergeStateMachine/receiveUpstream(subscription:)``), once its lock is released.
///
/// Not an ``MergeStateMachine/Action``: these transitions only ever cancel or ask the arriving
/// subscription, which the caller holds, so a trivial reply replaces the action's arrays, one
/// allocation and a generic array destroy per subscription (two of
/// `Just(i).flatMap { Just($0) }`'s twelve allocations, issue 30). Keeping a request in place in
/// the generic `Action` instead made it larger, copied through its value witnesses (`e5` 50%
/// worse, see Docs/Performance.md).
@usableFromInline
enum MergeSubscriptionReply {
  /// Nothing to do (no demand to share out yet).
  case keep
  /// Cancel it: the merge is over, or already has this subscription's place filled.
  case cancel
  /// Ask it for this demand (even zero: flatMap's upstream with `maxPublishers` `.max(0)`).
  case request(Subscribers.Demand)
}

/// Where a merge is in its life (the `State` of ``MergeStateMachine``). Declared outside the
/// generic machine, and without a payload, so that checking it costs nothing per value.
@usableFromInline
enum MergeState {
  /// Inputs may still deliver, and (for flatMap and switchToLatest) the upstream may still
  /// produce inputs.
  case active
  /// The upstream and every input finished: `.finished` goes downstream once the buffered
  /// values have been delivered (which may wait for demand).
  case finishing
  /// A failure arrived while a delivery was in progress: when that delivery returns, the
  /// deliverer sends the buffered values the demand covers, then the failure. Inputs are
  /// already cancelled.
  case failing
  /// The completion was handed to a deliverer, or the downstream cancelled: every later event
  /// is ignored and late subscriptions are cancelled.
  case terminated
}

/// A ``MergeMode`` without its payload.
@usableFromInline
enum MergeKind {
  /// `merge` and `MergeMany`.
  case fixed
  /// `flatMap(maxPublishers:)`.
  case flatMap
  /// `switchToLatest()`.
  case switchToLatest
}

/// Where a merge's inputs come from (the `Mode` of ``MergeStateMachine``).
@usableFromInline
enum MergeMode {
  /// `merge` and `MergeMany`: a fixed set of inputs, registered at the start.
  case fixed(inputCount: Int)
  /// `flatMap(maxPublishers:)`: the upstream is asked for `maxPublishers` values, each one
  /// becomes an input, and each input that finishes makes room for one more.
  case flatMap(maxPublishers: Subscribers.Demand)
  /// `switchToLatest()`: the upstream is asked for every value, and each new input cancels and
  /// replaces the current one.
  case switchToLatest
}

/// One input publisher of a merge (the `Input` of ``MergeStateMachine``).
@usableFromInline
struct MergeInputState {
  @inlinable
  init(id: Int, subscription: MergeSubscription? = nil, granted: Subscribers.Demand = .none) {
    self.id = id
    self.subscription = subscription
    self.granted = granted
  }

  /// The placeholder of an empty ``MergeInputList``'s first input (no input has a negative
  /// identifier).
  @inlinable
  static var none: MergeInputState { MergeInputState(id: -1) }

  /// Its identifier: inputs are numbered in the order they were added.
  @usableFromInline
  let id: Int
  /// Its subscription, once it arrived.
  @usableFromInline
  var subscription: MergeSubscription?
  /// What it was asked for and has not delivered yet.
  @usableFromInline
  var granted = Subscribers.Demand.none
}
