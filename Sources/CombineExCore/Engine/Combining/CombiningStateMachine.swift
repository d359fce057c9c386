/// The pure state of `combineLatest` and `zip` (``Publishers/CombineLatest``...`CombineLatest4`,
/// ``Publishers/Zip``...`Zip4`): a fixed set of inputs whose values are combined into tuples
/// for one downstream.
///
/// ``CombiningStorage`` owns one, runs its transitions under a lock, and performs the returned
/// ``Action`` (cancels, requests, a delivery) after releasing the lock. What differs between
/// the operators (keeping the latest value or queueing values, when the combination is over)
/// lives in ``CombiningValues``.
///
/// ## Demand
/// As in Combine, the downstream's requests pass through to every input: each input is asked
/// for exactly what the downstream asked for, in total (an input whose subscription arrives
/// late is asked for everything requested so far). `demand` is what the downstream asked for
/// and no output was made for yet; every output spends a unit of it when it is made, so the
/// downstream never receives more than it asked for.
/// - `zip` makes an output whenever there is demand and every input has a value waiting.
///   Because each input was asked for what the downstream asked for, and each tuple uses one
///   value of each, an input's waiting values plus what it still owes never exceed the
///   downstream's outstanding demand: the buffering is bounded by the demand, and no input is
///   asked for a value the downstream does not need.
/// - `combineLatest` makes an output when a value arrives, every input has a value, and there
///   is demand. A value that arrives without demand only replaces its input's latest value
///   (Combine's "buffer of one per input"); it is not delivered later.
///
/// ## Serial delivery
/// Outputs go through a ``DeliveryQueue``: one caller at a time delivers, outputs made
/// meanwhile (on other threads, or re-entrantly from inside the downstream's `receive`) wait
/// in order and the deliverer delivers them; their senders return at once.
///
/// ## Completion
/// The first failure of an input cancels the others, drops the waiting outputs and is
/// delivered as soon as the delivery in progress (if any) returns. `.finished` is delivered,
/// after the waiting outputs, once ``CombiningValues/isExhausted(finished:)`` says no output
/// can be made any more; the inputs that have not finished are cancelled then.
@usableFromInline
struct CombiningStateMachine<Values: CombiningValues, Failure: Error> {
  @usableFromInline
  typealias Output = Values.Output
  @usableFromInline
  typealias Item = DeliveryItem<Output, Failure>

  /// What the storage does after a transition, once the lock is released, in this order.
  @usableFromInline
  struct Action {
    @inlinable
    init(
      cancel: [any Subscription] = [],
      request: Subscribers.Demand = .none,
      requestFrom: [(any Subscription)?] = [],
      deliver: Item? = nil
    ) {
      self.cancel = cancel
      self.request = request
      self.requestFrom = requestFrom
      self.deliver = deliver
    }

    /// Subscriptions to cancel.
    @usableFromInline
    var cancel: [any Subscription] = []
    /// Demand to request from every subscription in `requestFrom`.
    @usableFromInline
    var request = Subscribers.Demand.none
    /// The subscriptions to ask for `request`.
    @usableFromInline
    var requestFrom: [(any Subscription)?] = []
    /// If set, the caller is now the deliverer and delivers this.
    @usableFromInline
    var deliver: Item?
  }

  /// Whether the combination still accepts values and demand (no completion decided, no
  /// cancel).
  @usableFromInline
  var isActive = true
  @usableFromInline
  var values: Values
  /// What the downstream asked for and no output was made for yet.
  @usableFromInline
  var demand = Subscribers.Demand.none
  /// Everything the downstream asked for so far: what an input is asked for when its
  /// subscription arrives.
  @usableFromInline
  var requested = Subscribers.Demand.none
  /// Each input's subscription, once it arrived and until the input completed.
  @usableFromInline
  var subscriptions: [(any Subscription)?]
  /// Which inputs finished.
  @usableFromInline
  var finished: [Bool]
  /// Outputs made and not yet delivered, and the deliverer role.
  @usableFromInline
  var delivery = DeliveryQueue<Output, Failure>()
  /// With ``CombiningValues/followsZipDemand``: the input whose value the current deliverer is
  /// delivering (it became the deliverer in ``receiveValue(fromInput:store:)``).
  @usableFromInline
  var deliveringInput: Int?
  /// With ``CombiningValues/followsZipDemand``: demand for each input, asked for while its
  /// value was being delivered, that its `receive` returns (``takeReturnedDemand(forInput:)``).
  @usableFromInline
  var returnedDemand: [Subscribers.Demand]

  @inlinable
  init(values: Values) {
    self.values = values
    subscriptions = Array(repeating: nil, count: values.inputCount)
    finished = Array(repeating: false, count: values.inputCount)
    returnedDemand =
      Values.followsZipDemand ? Array(repeating: .none, count: values.inputCount) : []
  }

  // MARK: Downstream

  /// The downstream asked for more.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> Action {
    var action = Action()
    guard isActive, more > 0 else { return action }
    addDemand(more, &action)
    return action
  }

  /// The common case after the deliverer delivered a value: if nothing waits and the
  /// downstream asked for nothing that changes anything (nothing more, or more of unlimited
  /// demand), gives up the deliverer role and returns `true`.
  /// Otherwise changes nothing and returns `false`: the caller then calls ``didDeliver(requesting:)``.
  @inlinable
  mutating func didDeliverWithNothingToDo(requesting more: Subscribers.Demand) -> Bool {
    guard isActive, more == .none || (requested == .unlimited && !Values.followsZipDemand),
      delivery.isIdle
    else {
      return false
    }
    _ = delivery.next()  // Gives up the role.
    deliveringInput = nil
    return true
  }

  /// The deliverer delivered a value and the downstream asked for `more`: returns what to do
  /// next (if `deliver` is unset, the caller gave up the deliverer role).
  @inlinable
  mutating func didDeliver(requesting more: Subscribers.Demand) -> Action {
    var action = Action()
    if isActive, more > 0 {
      addDemand(more, &action)
    }
    action.deliver = delivery.next()
    if case .value = action.deliver {} else { deliveringInput = nil }
    return action
  }

  /// Takes the demand that input `index`'s `receive` returns (see ``returnedDemand``).
  @inlinable
  mutating func takeReturnedDemand(forInput index: Int) -> Subscribers.Demand {
    defer { returnedDemand[index] = .none }
    return returnedDemand[index]
  }

  /// The downstream cancelled: returns the subscriptions to cancel.
  @inlinable
  mutating func cancel() -> [any Subscription] {
    guard isActive else {
      delivery.close()  // A completion waiting for the deliverer is not delivered.
      return []
    }
    isActive = false
    delivery.close()
    values.removeAll()
    return releaseSubscriptions()
  }

  // MARK: Inputs

  /// An input's subscription arrived: it is asked for everything requested so far.
  @inlinable
  mutating func receive(subscription: any Subscription, forInput index: Int) -> Action {
    guard isActive, subscriptions[index] == nil, !finished[index] else {
      return Action(cancel: [subscription])
    }
    subscriptions[index] = subscription
    guard requested > 0 else { return Action() }
    return Action(request: requested, requestFrom: [subscription])
  }

  /// An input delivered a value, which `store` puts in place: returns what to do (an output
  /// to deliver, if the caller became the deliverer).
  @inlinable
  mutating func receiveValue(
    fromInput index: Int, store: (inout Values) -> Void
  ) -> Action {
    var action = Action()
    guard isActive, !finished[index] else { return action }
    store(&values)
    assertInvariants()
    if demand > 0, let output = values.takeOutput() {
      demand -= 1
      if let output = delivery.offer(output) {
        action.deliver = .value(output)
        if Values.followsZipDemand { deliveringInput = index }
      }
    }
    finishIfExhausted(&action)
    return action
  }

  /// An input completed.
  @inlinable
  mutating func receive(
    completion: Subscribers.Completion<Failure>, fromInput index: Int
  ) -> Action {
    guard isActive, !finished[index] else { return Action() }
    finished[index] = true
    // Combine's `zip` cancels the subscription of the input that failed too.
    let own = Values.followsZipDemand ? subscriptions[index] : nil
    subscriptions[index] = nil
    switch completion {
    case .failure:
      isActive = false
      values.removeAll()
      var action = Action(cancel: releaseSubscriptions() + (own.map { [$0] } ?? []))
      if let item = delivery.complete(completion, droppingQueued: true) {
        action.deliver = item
      }
      return action
    case .finished:
      var action = Action()
      finishIfExhausted(&action)
      return action
    }
  }

  // MARK: Helpers

  /// Adds downstream demand, passes it on to every input, and makes the outputs it allows.
  @inlinable
  mutating func addDemand(_ more: Subscribers.Demand, _ action: inout Action) {
    // Once unlimited, every input already holds an unlimited request (Combine's `zip` asks
    // them anyway).
    guard requested != .unlimited || Values.followsZipDemand else { return }
    demand += more
    requested += more
    assertInvariants()
    action.request = more
    action.requestFrom = subscriptions
    if let index = deliveringInput {
      // The input whose value is being delivered gets this demand back from its `receive`.
      action.requestFrom[index] = nil
      returnedDemand[index] += more
    }
    guard !Values.emitsOnlyOnArrival else { return }
    while demand > 0, let output = values.takeOutput() {
      demand -= 1
      if let output = delivery.offer(output) { action.deliver = .value(output) }
    }
    finishIfExhausted(&action)
  }

  /// Ends the combination with `.finished` (after the waiting outputs) once no output can be
  /// made any more; the inputs still running are cancelled.
  @inlinable
  mutating func finishIfExhausted(_ action: inout Action) {
    guard isActive, values.isExhausted(finished: finished) else { return }
    isActive = false
    values.removeAll()
    action.cancel += releaseSubscriptions()
    if let item = delivery.complete(.finished, droppingQueued: false) {
      action.deliver = item
    }
  }

  /// Checks, in debug builds only (the benchmarks' release build compiles it out), the
  /// invariants kept by hand: one subscription slot and one `finished` flag per input; the
  /// demand not yet spent is part of what was requested; the zip-only bookkeeping stays empty
  /// for `combineLatest`.
  @inlinable
  func assertInvariants() {
    assert(
      subscriptions.count == values.inputCount && finished.count == values.inputCount,
      "one subscription slot and one finished flag per input")
    assert(demand <= requested, "the demand not yet spent was requested")
    assert(
      Values.followsZipDemand || (deliveringInput == nil && returnedDemand.isEmpty),
      "only zip tracks the delivering input and the demand it returns")
  }

  /// Forgets every input's subscription; returns them, to cancel.
  @inlinable
  mutating func releaseSubscriptions() -> [any Subscription] {
    defer {
      for index in subscriptions.indices { subscriptions[index] = nil }
    }
    return subscriptions.compactMap { $0 }
  }
}
