import CombineExCore

/// The pure state of one ``Publishers/Custom`` subscription: what the handler sent, what the
/// subscriber asked for, and who delivers. ``CustomSubscription`` runs its transitions under a
/// lock and performs the ``Step`` they return after releasing it.
///
/// ## Demand
/// `demand` is what the subscriber asked for and has not received yet. A value is delivered
/// only against a unit of it; a value sent without demand waits in `waiting`, oldest first,
/// until the subscriber asks for more. The demand a subscriber returns from `receive(_:)`
/// adds to it like a request.
///
/// ## Serial delivery
/// At most one caller at a time is the deliverer (`isDelivering`): it delivers the ``Step`` it
/// was given, then asks ``didDeliver(requesting:)`` for the next one, until there is none.
/// Values sent meanwhile (from other threads, or from inside the subscriber's `receive`) wait
/// and are delivered by the deliverer, in order; their senders return at once.
///
/// ## Completion and cancel
/// The first completion waits behind the waiting values; everything sent after it is dropped.
/// A cancel drops the waiting values and the waiting completion; nothing is delivered after
/// it except the delivery already in progress.
struct CustomSubscriptionStateMachine<Output, Failure: Error> {
  /// What the caller delivers, once the lock is released.
  enum Step {
    /// Nothing to deliver (the caller is not the deliverer, or gave up the role).
    case none
    /// Deliver this value, then call ``didDeliver(requesting:)``.
    case value(Output)
    /// Deliver this completion; the subscription is over.
    case completion(Subscribers.Completion<Failure>)
  }

  /// Where the subscription is.
  enum Status {
    /// Values may be sent.
    case active
    /// A completion was sent and waits behind `waiting` (or behind the delivery in progress).
    case completing(Subscribers.Completion<Failure>)
    /// The completion was handed out: nothing more happens.
    case completed
    /// The subscriber cancelled: nothing more happens.
    case cancelled
  }

  private(set) var status = Status.active
  /// What the subscriber asked for and has not received yet.
  private(set) var demand = Subscribers.Demand.none
  /// Values sent without demand (or during a delivery), oldest first. A value leaves it (and
  /// is released) as it is handed out.
  private var waiting = ValueQueue<Output>()
  /// Whether a caller holds the deliverer role.
  private var isDelivering = false

  /// Whether the subscriber cancelled.
  var isCancelled: Bool {
    if case .cancelled = status { return true }
    return false
  }

  /// The demand to show through the handler's `demand` property: none once the subscription
  /// is over.
  var visibleDemand: Subscribers.Demand {
    switch status {
    case .active, .completing: demand
    case .completed, .cancelled: .none
    }
  }

  // MARK: The handler's side

  /// The handler sent a value.
  mutating func send(_ value: Output) -> Step {
    guard case .active = status else { return .none }
    if isDelivering || demand == .none || !waiting.isEmpty {
      waiting.append(value)
      return .none
    }
    demand -= 1
    isDelivering = true
    return .value(value)
  }

  /// The handler sent a completion.
  mutating func complete(_ completion: Subscribers.Completion<Failure>) -> Step {
    guard case .active = status else { return .none }
    status = .completing(completion)
    guard !isDelivering else { return .none }
    return next()
  }

  // MARK: The subscriber's side

  /// The subscriber asked for more.
  mutating func request(_ more: Subscribers.Demand) -> Step {
    switch status {
    case .active, .completing: demand += more
    case .completed, .cancelled: return .none
    }
    guard !isDelivering else { return .none }
    return next()
  }

  /// The deliverer delivered a value, and the subscriber asked for `more` in return: the next
  /// step (`.none` gives up the role).
  mutating func didDeliver(requesting more: Subscribers.Demand) -> Step {
    isDelivering = false
    switch status {
    case .active, .completing: demand += more
    case .completed, .cancelled: return .none
    }
    return next()
  }

  /// The subscriber cancelled; returns whether it was the first time.
  mutating func cancel() -> Bool {
    switch status {
    case .active, .completing:
      status = .cancelled
      waiting.removeAll()
      return true
    case .completed, .cancelled:
      return false
    }
  }

  // MARK: Helpers

  /// The next step for a caller that may take the deliverer role: a waiting value if there is
  /// demand, else the waiting completion once no value waits.
  private mutating func next() -> Step {
    if !waiting.isEmpty {
      guard demand > .none, let value = waiting.popFirst() else { return .none }
      demand -= 1
      isDelivering = true
      return .value(value)
    }
    if case .completing(let completion) = status {
      status = .completed
      return .completion(completion)
    }
    return .none
  }
}
