/// The subscription that `merge`, `MergeMany` and `flatMap(maxPublishers:)` hand their
/// downstream (`switchToLatest()` hands a ``SwitchToLatestSubscription`` in front of it): it owns the ``MergeStateMachine`` and the lock
/// guarding it, runs each event through the machine under the lock, and performs the returned
/// action (cancelling, requesting, delivering) after releasing it.
///
/// Inputs reach it through ``MergeInput`` subscribers, the upstream of flatMap through a
/// ``MergeUpstream``, that of switchToLatest through its ``SwitchToLatestSubscription``.
///
/// A multi-input machine, not an ``OperatorDriver``: values arrive from several inputs on
/// several threads at once, so delivery needs a deliverer role and a buffer, and demand is
/// shared out among the inputs.
@usableFromInline
final class MergeStorage<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: `fields` (the machine and the downstream) is guarded by `lock`; a
  // deliverer uses its own copy of the downstream, and the machine lets only one caller at a
  // time be the deliverer. `fields` skips the runtime's exclusivity checks
  // (`@exclusivity(unchecked)`): the lock already makes every access exclusive.
  @usableFromInline
  typealias Machine = MergeStateMachine<Downstream.Input, Downstream.Failure>

  @usableFromInline
  let lock = Lock()
  /// The machine and the downstream, guarded by `lock`, in one struct kept in place in
  /// ``fieldWords`` (or, if it does not fit there, in memory of its own), at
  /// ``fieldsAddress``, and destroyed by the storage's deinitializer through ``entry``, in code
  /// specialized for `Downstream`. Swift never specializes a generic class's deinitializer,
  /// which looks up in the runtime's metadata cache, at every subscription, the type of every
  /// stored property that is generic but not one of the class's parameters: as a stored
  /// `Fields`, about 110 instructions per merge (issue 30). A stored property whose type is not
  /// generic costs nothing there. (The specialized destroy still runs `Fields`' value witness,
  /// its metadata cached: the compiler's outlined destroy of the struct goes through it, even
  /// now that the machine holds no existentials, see ``MergeSubscription``.)
  @inlinable
  var fields: Fields {
    unsafeAddress { UnsafePointer(fieldsPointer) }
    unsafeMutableAddress { fieldsPointer }
  }

  /// Where ``fields`` lives (see there).
  @inlinable
  var fieldsPointer: UnsafeMutablePointer<Fields> {
    fieldsAddress.unsafelyUnwrapped.assumingMemoryBound(to: Fields.self)
  }

  /// The address of ``fields``: in ``fieldWords``, or memory of its own (set once, in `init`,
  /// hence no runtime exclusivity checks).
  @usableFromInline
  @exclusivity(unchecked)
  var fieldsAddress: UnsafeMutableRawPointer?

  /// The storage of ``fields`` when it fits (see ``storesFieldsInPlace``).
  @usableFromInline
  @exclusivity(unchecked)
  var fieldWords = MergeFieldWords()

  /// Whether ``fields`` is kept in ``fieldWords``: decided by the type, so constant where
  /// specialized.
  @inlinable
  static var storesFieldsInPlace: Bool {
    MemoryLayout<Fields>.size <= MemoryLayout<MergeFieldWords>.size
      && MemoryLayout<Fields>.alignment <= MemoryLayout<MergeFieldWords>.alignment
  }

  /// See ``fields``.
  @usableFromInline
  struct Fields {
    @usableFromInline
    var machine: Machine
    /// Released (set to `nil`) when the completion is handed out or the downstream cancels.
    @usableFromInline
    var downstream: Downstream?

    @inlinable
    init(machine: Machine, downstream: Downstream) {
      self.machine = machine
      self.downstream = downstream
    }
  }

  @usableFromInline
  let description: String
  /// Whether the demand the downstream returns for a value goes back through the `receive` of
  /// the input that sent it (flatMap and switchToLatest, as in Combine; see
  /// ``MergeStateMachine/didDeliverFirst(requesting:fromInput:)``).
  @usableFromInline
  let returnsDemandToInputs: Bool
  /// Runs an event that came in through a witness (see ``MergeEntry``) in code specialized for
  /// `Downstream`: made here, in the `@inlinable` initializer, it captures nothing (the
  /// storage comes as its argument), so it costs no allocation.
  @usableFromInline
  let entry: (MergeStorage, MergeEntry, UnsafeRawPointer?) -> Subscribers.Demand
  /// Runs a value of input `input` in code specialized for `Downstream`, for the inputs whose
  /// route says so (``MergeValuesThroughEntry``: switchToLatest's). The others call
  /// ``receive(_:fromInput:)`` directly, which a specialized caller inlines (see
  /// ``MergeValueRoute``).
  @usableFromInline
  let valueEntry: (MergeStorage, Downstream.Input, _ input: Int) -> Subscribers.Demand
  /// Runs a completion that came in through a witness (that of an input, `input` its number,
  /// or of the upstream, `input` `nil`) in code specialized for `Downstream`, as ``entry``.
  /// Typed rather than a pointer: the unspecialized witness hands on the completion it was
  /// given, where copying it into a generic payload for ``entry`` looked up the metadata of
  /// `Subscribers.Completion<Failure>` and ran the generic copy, about 1,400 instructions per
  /// completion (`s.SwitchToLatest`, issue 30).
  @usableFromInline
  let completionEntry:
    (MergeStorage, Subscribers.Completion<Downstream.Failure>, _ input: Int?) -> Void

  @inlinable
  init(mode: Machine.Mode, downstream: Downstream, name: String) {
    description = name
    if case .fixed = mode { returnsDemandToInputs = false } else { returnsDemandToInputs = true }
    entry = { storage, event, payload in storage.handle(event, payload) }
    valueEntry = { storage, value, input in storage.receive(value, fromInput: input) }
    completionEntry = { storage, completion, input in
      if let input {
        storage.receive(completion: completion, fromInput: input)
      } else {
        storage.receiveUpstream(completion: completion)
      }
    }
    let address =
      Self.storesFieldsInPlace
      ? MergeFieldWords.address(&fieldWords)
      : UnsafeMutableRawPointer(UnsafeMutablePointer<Fields>.allocate(capacity: 1))
    address.initializeMemory(
      as: Fields.self, to: Fields(machine: Machine(mode: mode), downstream: downstream))
    fieldsAddress = address
  }

  deinit {
    enter(.destroyFields)
  }

  /// Destroys ``fields``, from the deinitializer: here, specialized, the destroy is inlined.
  @inlinable
  func destroyFields() {
    fieldsPointer.deinitialize(count: 1)
    if !Self.storesFieldsInPlace { fieldsPointer.deallocate() }
  }

  /// Runs `event`, whose generic payload (if any) `payload` points to.
  @inlinable
  func handle(_ event: MergeEntry, _ payload: UnsafeRawPointer?) -> Subscribers.Demand {
    switch event {
    case .request(let demand):
      handleRequest(demand)
    case .cancel:
      handleCancel()
    case .subscription(let id):
      receive(
        subscription: payload.unsafelyUnwrapped.assumingMemoryBound(to: (any Subscription).self)
          .pointee, forInput: id)
    case .upstreamSubscription:
      receiveUpstream(
        subscription: payload.unsafelyUnwrapped.assumingMemoryBound(to: (any Subscription).self)
          .pointee)
    case .destroyFields:
      destroyFields()
    }
    return .none
  }

  /// Hands `event` to ``entry``, with a pointer to `subscription`, in a variable of type
  /// `any Subscription` (not through a generic function: there, the optimizer may open the
  /// existential and hand out the address of the bare reference).
  @inlinable
  func enter(_ event: MergeEntry, subscription: any Subscription) {
    var subscription: any Subscription = subscription
    _ = withUnsafeMutablePointer(to: &subscription) { entry(self, event, UnsafeRawPointer($0)) }
  }

  /// Hands `event`, which has no generic payload, to ``entry``.
  @inlinable
  func enter(_ event: MergeEntry) {
    _ = entry(self, event, nil)
  }

  /// Whether the merge still accepts inputs (used to skip subscribing inputs once it is over).
  @inlinable
  var isActive: Bool { lock.withLock { fields.machine.isActive } }

  /// Finishes an empty merge at once; called after the downstream received the subscription.
  @inlinable
  func start() {
    perform(transition { $0.start() })
  }

  // MARK: Inputs

  /// Subscribes a fixed input (`merge`, `MergeMany`), unless the merge is already over.
  @inlinable
  func subscribe<Input: Publisher>(_ input: Input, as id: Int)
  where Input.Output == Downstream.Input, Input.Failure == Downstream.Failure {
    guard isActive else { return }
    input.subscribe(MergeInput<Downstream, MergeValuesDirect>(storage: self, id: id))
  }

  /// Registers and subscribes a new input made from an upstream value (flatMap,
  /// switchToLatest). `makeInput` runs only if the merge is still active.
  @inlinable
  func subscribeNewInput<Input: Publisher, Route: MergeValueRoute>(
    route: Route.Type, _ makeInput: () -> Input
  ) where Input.Output == Downstream.Input, Input.Failure == Downstream.Failure {
    guard let (id, replaced) = lock.withLock({ fields.machine.addInput() }) else { return }
    for subscription in replaced { subscription.cancel() }
    makeInput().subscribe(MergeInput<Downstream, Route>(storage: self, id: id))
  }

  /// Subscribes the input that an upstream value (pointed to by `payload`) becomes, through
  /// `makeInput`: called from ``MergeUpstream`` and ``SwitchToLatestSubscription`` through a
  /// closure of theirs made where the types are known (see ``MergeEntry``).
  @inlinable
  func subscribeNewInput<Value, Input: Publisher, Route: MergeValueRoute>(
    from payload: UnsafeRawPointer, route: Route.Type, _ makeInput: (Value) -> Input
  ) where Input.Output == Downstream.Input, Input.Failure == Downstream.Failure {
    subscribeNewInput(route: route) {
      makeInput(payload.assumingMemoryBound(to: Value.self).pointee)
    }
  }

  @inlinable
  func receive(subscription: any Subscription, forInput id: Int) {
    let kept = MergeSubscription(subscription)  // Outside the lock: it may allocate a box.
    answer(
      subscription, lock.withLock { fields.machine.receive(subscription: kept, forInput: id) })
  }

  @inlinable
  func receive(_ value: Downstream.Input, fromInput id: Int) -> Subscribers.Demand {
    let (arrival, downstream) = lock.withLock { () -> (Machine.Arrival, Downstream?) in
      let arrival = fields.machine.receive(value, fromInput: id)
      guard case .deliver = arrival else { return (arrival, nil) }
      return (arrival, fields.downstream)
    }
    switch arrival {
    case .deliver:
      guard let downstream else { return .none }
      return deliverValues(startingWith: value, fromInput: id, to: downstream)
    case .buffered(let demand):
      return demand
    case .dropped:
      return .none
    case .unwanted:
      apiViolation(
        "\(description)'s inner publisher sent a value that was not requested. A publisher "
          + "sends at most what its subscriber asked for.")
    }
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>, fromInput id: Int) {
    let result = lock.withLock { () -> (action: Machine.Action, downstream: Downstream?)? in
      guard let action = fields.machine.receive(completion: completion, fromInput: id) else {
        return nil
      }
      return takeDownstream(for: action)
    }
    guard let result else {
      apiViolation(
        "\(description)'s inner publisher completed before sending its subscription. A "
          + "publisher sends the subscription first.")
    }
    perform(result)
  }

  // MARK: Upstream (flatMap, switchToLatest)

  @inlinable
  func receiveUpstream(subscription: any Subscription) {
    let kept = MergeSubscription(subscription)  // Outside the lock: it may allocate a box.
    answer(subscription, lock.withLock { fields.machine.receiveUpstream(subscription: kept) })
  }

  @inlinable
  func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) {
    perform(transition { $0.receiveUpstream(completion: completion) })
  }

  // MARK: Subscription

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    enter(.request(demand))
  }

  @inlinable
  func cancel() {
    enter(.cancel)
  }

  @inlinable
  func handleRequest(_ demand: Subscribers.Demand) {
    if returnsDemandToInputs, demand == .none {
      apiViolation(
        "\(description) was asked for zero values. A request must be for one or more.")
    }
    perform(transition { $0.request(demand) })
  }

  @inlinable
  func handleCancel() {
    let subscriptions = lock.withLock { () -> [MergeSubscription] in
      fields.downstream = nil
      return fields.machine.cancel()
    }
    for subscription in subscriptions { subscription.cancel() }
  }

  // MARK: Performing actions (never under the lock)

  /// Runs a transition under the lock; returns its action and, if the action delivers, the
  /// downstream to deliver to (released here when the delivery is the completion).
  @inlinable
  func transition(
    _ body: (inout Machine) -> Machine.Action
  ) -> (action: Machine.Action, downstream: Downstream?) {
    lock.withLock { takeDownstream(for: body(&fields.machine)) }
  }

  /// Under the lock: the downstream to deliver `action`'s delivery to, if any (released here
  /// when the delivery is the completion).
  @inlinable
  func takeDownstream(
    for action: Machine.Action
  ) -> (action: Machine.Action, downstream: Downstream?) {
    switch action.deliver {
    case nil:
      return (action, nil)
    case .value:
      return (action, fields.downstream)
    case .finished, .failure:
      defer { fields.downstream = nil }
      return (action, fields.downstream)
    }
  }

  @inlinable
  func perform(_ result: (action: Machine.Action, downstream: Downstream?)) {
    performUpstreamCalls(result.action)
    if let delivery = result.action.deliver, let downstream = result.downstream {
      deliver(delivery, to: downstream)
    }
  }

  /// Does what the machine replied to `subscription`'s arrival.
  @inlinable
  func answer(_ subscription: any Subscription, _ reply: MergeSubscriptionReply) {
    switch reply {
    case .keep:
      break
    case .cancel:
      subscription.cancel()
    case .request(let demand):
      subscription.request(demand)
    }
  }

  @inlinable
  func performUpstreamCalls(_ action: Machine.Action) {
    for subscription in action.cancel { subscription.cancel() }
    for (subscription, demand) in action.request { subscription.request(demand) }
  }

  /// The deliverer's loop: sends `first`, then whatever the machine hands out next, until it
  /// hands out nothing or a completion.
  @inlinable
  func deliver(_ first: Machine.Delivery, to downstream: Downstream) {
    switch first {
    case .value(let value):
      deliverValues(startingWith: value, to: downstream)
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let failure):
      downstream.receive(completion: .failure(failure))
    }
  }

  /// The deliverer's loop for values. Kept apart from the completions, and with a fast path
  /// for the common case (nothing waiting, no new grants), so that a value costs two short
  /// critical sections and no intermediate generic values.
  ///
  /// `input` is the input whose own `receive` is delivering `first`; returns what that
  /// `receive` returns (see ``returnsDemandToInputs``).
  @inlinable
  @discardableResult
  func deliverValues(
    startingWith first: Downstream.Input, fromInput input: Int? = nil,
    to downstream: Downstream
  ) -> Subscribers.Demand {
    var value = first
    var returned = Subscribers.Demand.none
    if let input, returnsDemandToInputs {
      let more = downstream.receive(value)
      if let returned = lock.withLock({
        fields.machine.didDeliverFirstWithNothingToDo(requesting: more, fromInput: input)
      }) {
        return returned
      }
      let next: Downstream.Input?
      (returned, next) = afterDelivery(to: downstream) {
        $0.didDeliverFirst(requesting: more, fromInput: input)
      }
      guard let next else { return returned }
      value = next
    }
    while true {
      let more = downstream.receive(value)
      if lock.withLock({ fields.machine.didDeliverWithNothingToDo(requesting: more) }) {
        return returned
      }
      guard let next = afterDelivery(to: downstream, { $0.didDeliver(requesting: more) }).next
      else { return returned }
      value = next
    }
  }

  /// The slow path after a delivery: performs the machine's action and returns the next value
  /// to deliver, if any (a completion is delivered here), with the demand the delivering input
  /// returns.
  @inlinable
  func afterDelivery(
    to downstream: Downstream, _ body: (inout Machine) -> Machine.Action
  ) -> (returned: Subscribers.Demand, next: Downstream.Input?) {
    let (action, _) = transition(body)
    performUpstreamCalls(action)
    let returned = action.returned
    switch action.deliver {
    case nil:
      return (returned, nil)
    case .value(let value):
      return (returned, value)
    case .finished:
      downstream.receive(completion: .finished)
      return (returned, nil)
    case .failure(let failure):
      downstream.receive(completion: .failure(failure))
      return (returned, nil)
    }
  }
}

/// The subscriber a merge attaches to each of its inputs: it tags the input's events with the
/// input's identifier and hands them to the ``MergeStorage``.
@usableFromInline
final class MergeInput<Downstream: Subscriber, Route: MergeValueRoute>: Subscriber,
  CustomStringConvertible
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let storage: MergeStorage<Downstream>
  @usableFromInline
  let id: Int

  @inlinable
  init(storage: MergeStorage<Downstream>, id: Int) {
    self.storage = storage
    self.id = id
  }

  @inlinable
  var description: String { storage.description }

  @inlinable
  func receive(subscription: any Subscription) {
    storage.enter(.subscription(input: id), subscription: subscription)
  }

  /// Values go to the storage directly, not through ``MergeStorage/entry``: specialized
  /// callers (a sequence, a subject's conduit) then inline the whole path, and a value is the
  /// hot path (`f`, `g1`), where the entry's hop cost 4% to 12% more instructions. Except for
  /// switchToLatest's inputs, whose `Route` sends them through ``MergeStorage/valueEntry``
  /// (see ``MergeValueRoute``).
  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    // Decided by the type: specialized, only one of the two calls remains.
    if Route.throughEntry { return storage.valueEntry(storage, input, id) }
    return storage.receive(input, fromInput: id)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    storage.completionEntry(storage, completion, id)
  }
}

/// The subscriber flatMap attaches to its upstream: each value becomes a new
/// input of the ``MergeStorage``, through `transform`.
@usableFromInline
final class MergeUpstream<Upstream: Publisher, Child: Publisher, Downstream: Subscriber>:
  Subscriber, CustomStringConvertible
where
  Child.Output == Downstream.Input, Child.Failure == Downstream.Failure,
  Upstream.Failure == Downstream.Failure
{
  @usableFromInline
  typealias Input = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  @usableFromInline
  let storage: MergeStorage<Downstream>
  @usableFromInline
  let transform: (Upstream.Output) -> Child
  /// Subscribes the input an upstream value (pointed to) becomes: made here, where the types
  /// are known, so that the work is specialized (see ``MergeEntry``).
  @usableFromInline
  let subscribeInput: (MergeUpstream, UnsafeRawPointer) -> Void

  @inlinable
  init(storage: MergeStorage<Downstream>, transform: @escaping (Upstream.Output) -> Child) {
    self.storage = storage
    self.transform = transform
    subscribeInput = { upstream, value in
      upstream.storage.subscribeNewInput(
        from: value, route: MergeValuesDirect.self, upstream.transform)
    }
  }

  @inlinable
  var description: String { storage.description }

  @inlinable
  func receive(subscription: any Subscription) {
    storage.enter(.upstreamSubscription, subscription: subscription)
  }

  @inlinable
  func receive(_ input: Upstream.Output) -> Subscribers.Demand {
    var input = input  // An address that lives through the call (see `MergeStorage.enter`).
    withUnsafeMutablePointer(to: &input) { subscribeInput(self, UnsafeRawPointer($0)) }
    // The upstream is asked for values explicitly (see `MergeStateMachine`).
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Upstream.Failure>) {
    storage.completionEntry(storage, completion, nil)
  }
}

/// How a ``MergeInput`` hands its values to its ``MergeStorage``, decided by its type so that
/// code specialized for the input keeps only one of the two calls.
///
/// Directly (``MergeValuesDirect``: merge, flatMap): a caller specialized for the input (a
/// sequence, a subject's conduit) inlines the storage's whole value path; through the
/// storage's ``MergeStorage/valueEntry`` closure, the per-value workloads cost 4% (`g1`) to 18%
/// (`f`) more. Through the entry (``MergeValuesThroughEntry``: switchToLatest): an upstream
/// that calls the input through the `Subscriber` protocol runs the input's unspecialized code,
/// where the storage's value path looked up the metadata of its generic types at every value
/// (about 5,000 instructions of subscribing to `switchToLatest`, issue 30); the entry is
/// specialized.
@usableFromInline
protocol MergeValueRoute {
  /// Whether values go through ``MergeStorage/valueEntry``.
  static var throughEntry: Bool { get }
}

/// Values go to the storage directly (see ``MergeValueRoute``).
@usableFromInline
enum MergeValuesDirect: MergeValueRoute {
  @inlinable
  static var throughEntry: Bool { false }
}

/// Values go through the storage's entry (see ``MergeValueRoute``).
@usableFromInline
enum MergeValuesThroughEntry: MergeValueRoute {
  @inlinable
  static var throughEntry: Bool { true }
}

/// The in-place storage of a ``MergeStorage``'s `fields` (see there): twenty-four words, which
/// hold the machine and the downstream of every merge whose downstream is a class (a sink, an
/// operator's subscriber) or a struct of a few words, and whose failure is at most a few words.
@usableFromInline
struct MergeFieldWords {
  @usableFromInline
  var words:
    (
      UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt,
      UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

  @inlinable
  init() {}

  /// The address of `words` (taken as an argument, `&fieldWords`: a final class's stored
  /// property, whose address is stable for the object's life).
  @inlinable
  static func address(_ words: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer { words }
}
