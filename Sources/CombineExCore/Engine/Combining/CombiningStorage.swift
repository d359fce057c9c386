/// The subscription that `combineLatest` and `zip` hand their downstream: it owns the
/// ``CombiningStateMachine`` and the lock guarding it, runs each event through the machine
/// under the lock, and performs the returned action (cancelling, requesting, delivering) after
/// releasing it. Inputs reach it through ``CombiningInput`` subscribers.
///
/// A multi-input machine, not an ``OperatorDriver``: values arrive from several inputs on
/// several threads at once and are combined before delivery, one deliverer at a time
/// (``DeliveryQueue``).
///
/// Package-visible: CombineEx's `Publishers.Aggregate` uses it with values of its own.
@usableFromInline
package final class CombiningStorage<Values: CombiningValues, Downstream: Subscriber>: Subscription,
  CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Values.Output {
  // @unchecked Sendable: `machine` and `downstream` are guarded by `lock`; a deliverer uses its
  // own copy of `downstream`, and the machine lets only one caller at a time be the deliverer.
  // The `var`s skip the runtime's exclusivity checks (`@exclusivity(unchecked)`): the lock
  // already makes every access exclusive.
  @usableFromInline
  typealias Machine = CombiningStateMachine<Values, Downstream.Failure>

  /// `request(_:)` and `cancel()`, made in `init` (specialized where the storage is made, with
  /// the operator's `receive(subscriber:)`). The downstream holds the storage as an
  /// `any Subscription`, and a call through a protocol reaches a generic class's unspecialized
  /// code: the whole machine then ran generic, looking up generic metadata at every step (most
  /// of the instructions of subscribing to `zip`). The protocol's methods only call these.
  @usableFromInline
  let requestEntry: (CombiningStorage, Subscribers.Demand) -> Void
  @usableFromInline
  let cancelEntry: (CombiningStorage) -> Void

  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var machine: Machine
  /// Released (set to `nil`) when the completion is handed out or the downstream cancels.
  @usableFromInline
  @exclusivity(unchecked)
  var downstream: Downstream?

  @usableFromInline
  package let description: String

  /// A storage for one downstream; `values` holds what the combination keeps of its inputs
  /// (empty storage for Combine's operators, whose input count the values' type fixes).
  @inlinable
  package init(downstream: Downstream, name: String, values: Values = Values()) {
    self.downstream = downstream
    description = name
    machine = Machine(values: values)
    requestEntry = { storage, demand in storage.requestSpecialized(demand) }
    cancelEntry = { storage in storage.cancelSpecialized() }
  }

  /// Hands the downstream its subscription; call it before subscribing the inputs.
  @inlinable
  package func start() {
    let downstream = lock.withLock { self.downstream }
    downstream?.receive(subscription: self)
  }

  // MARK: Inputs

  /// Subscribes input `index`, unless the combination is already over (an earlier input
  /// failed synchronously, or the downstream cancelled). `store` puts one of its values in
  /// place.
  @inlinable
  package func subscribe<Input: Publisher>(
    _ input: Input, at index: Int, store: @escaping (inout Values, Input.Output) -> Void
  ) where Input.Failure == Downstream.Failure {
    guard lock.withLock({ machine.isActive }) else { return }
    input.subscribe(CombiningInput(storage: self, index: index, store: store))
  }

  @inlinable
  func receive(subscription: any Subscription, forInput index: Int) {
    perform(transition { $0.receive(subscription: subscription, forInput: index) })
  }

  @inlinable
  func receive<Value>(
    _ value: Value, fromInput index: Int, store: (inout Values, Value) -> Void
  ) -> Subscribers.Demand {
    let result = transition { $0.receiveValue(fromInput: index) { store(&$0, value) } }
    // Inputs are asked for values explicitly (see `CombiningStateMachine`), except, for `zip`,
    // the demand asked for while this value's output was being delivered, returned as in
    // Combine.
    guard Values.followsZipDemand, case .value(let output)? = result.action.deliver,
      let downstream = result.downstream
    else {
      perform(result)
      return .none
    }
    performUpstreamCalls(result.action)
    return deliverValues(startingWith: output, to: downstream, returningFor: index)
  }

  @inlinable
  func receive(
    completion: Subscribers.Completion<Downstream.Failure>, fromInput index: Int
  ) {
    perform(transition { $0.receive(completion: completion, fromInput: index) })
  }

  // MARK: Subscription

  @inlinable
  package func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

  @inlinable
  package func cancel() { cancelEntry(self) }

  @inlinable
  func requestSpecialized(_ demand: Subscribers.Demand) {
    // As in Combine, a request of zero stops the program in `zip` (`combineLatest` ignores it).
    if Values.followsZipDemand, demand == .none {
      apiViolation("\(description) was asked for zero values. A request must be for one or more.")
    }
    perform(transition { $0.request(demand) })
  }

  @inlinable
  func cancelSpecialized() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      downstream = nil
      return machine.cancel()
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
    lock.withLock {
      let action = body(&machine)
      switch action.deliver {
      case nil:
        return (action, nil)
      case .value:
        return (action, downstream)
      case .completion:
        defer { downstream = nil }
        return (action, downstream)
      }
    }
  }

  @inlinable
  func perform(_ result: (action: Machine.Action, downstream: Downstream?)) {
    performUpstreamCalls(result.action)
    guard let item = result.action.deliver, let downstream = result.downstream else { return }
    switch item {
    case .value(let value):
      deliverValues(startingWith: value, to: downstream)
    case .completion(let completion):
      downstream.receive(completion: completion)
    }
  }

  @inlinable
  func performUpstreamCalls(_ action: Machine.Action) {
    for subscription in action.cancel { subscription.cancel() }
    if action.request > 0 {
      for case let subscription? in action.requestFrom { subscription.request(action.request) }
    }
  }

  /// The deliverer's loop: sends `first`, then whatever the machine hands out next, until it
  /// hands out nothing or the completion. The common case (nothing waiting, no new demand)
  /// costs one short critical section per value.
  ///
  /// With `input` (`zip`, delivering for that input's value): returns the demand that input's
  /// `receive` gives back, taken when the deliverer role is given up.
  @inlinable
  @discardableResult
  func deliverValues(
    startingWith first: Downstream.Input, to downstream: Downstream, returningFor input: Int? = nil
  ) -> Subscribers.Demand {
    var value = first
    var returned = Subscribers.Demand.none
    while true {
      Interleaving.point("deliveryQueue.deliver")  // The deliverer role, between two lock holds.
      let more = downstream.receive(value)
      let done = lock.withLock { () -> Bool in
        guard machine.didDeliverWithNothingToDo(requesting: more) else { return false }
        if let input { returned = machine.takeReturnedDemand(forInput: input) }
        return true
      }
      if done { return returned }
      let (action, _) = transition { machine in
        let action = machine.didDeliver(requesting: more)
        var delivering = false
        if case .value = action.deliver { delivering = true }
        // The role ends here: take what the input gets back.
        if let input, !delivering { returned = machine.takeReturnedDemand(forInput: input) }
        return action
      }
      performUpstreamCalls(action)
      switch action.deliver {
      case nil:
        return returned
      case .value(let next):
        value = next
      case .completion(let completion):
        downstream.receive(completion: completion)
        return returned
      }
    }
  }
}

/// The subscriber `combineLatest` and `zip` attach to each input: it tags the input's events
/// with its position and hands them to the ``CombiningStorage``, with the function that stores
/// one of its values.
@usableFromInline
final class CombiningInput<Values: CombiningValues, Downstream: Subscriber, Input>: Subscriber,
  CustomStringConvertible
where Downstream.Input == Values.Output {
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let storage: CombiningStorage<Values, Downstream>
  @usableFromInline
  let index: Int
  @usableFromInline
  let store: (inout Values, Input) -> Void
  /// The three events, made in `init` (specialized where the input is subscribed): the input
  /// calls this subscriber through the protocol, which reaches a generic class's unspecialized
  /// code (see ``CombiningStorage/requestEntry``). The protocol's methods only call these.
  @usableFromInline
  let subscriptionEntry: (CombiningInput, any Subscription) -> Void
  @usableFromInline
  let valueEntry: (CombiningInput, Input) -> Subscribers.Demand
  @usableFromInline
  let completionEntry: (CombiningInput, Subscribers.Completion<Downstream.Failure>) -> Void

  @inlinable
  init(
    storage: CombiningStorage<Values, Downstream>, index: Int,
    store: @escaping (inout Values, Input) -> Void
  ) {
    self.storage = storage
    self.index = index
    self.store = store
    subscriptionEntry = { input, subscription in
      input.storage.receive(subscription: subscription, forInput: input.index)
    }
    valueEntry = { input, value in
      input.storage.receive(value, fromInput: input.index, store: input.store)
    }
    completionEntry = { input, completion in
      input.storage.receive(completion: completion, fromInput: input.index)
    }
  }

  @inlinable
  var description: String { storage.description }

  @inlinable
  func receive(subscription: any Subscription) {
    subscriptionEntry(self, subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    valueEntry(self, input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    completionEntry(self, completion)
  }
}
