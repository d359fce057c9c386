/// The pure state of ``Publishers/Buffer``: the values waiting for the downstream's demand, the
/// demand, and how the buffer ends.
///
/// ``BufferStorage`` owns one, runs its transitions under a lock and performs the returned
/// ``Action`` after releasing it. Values arrive from the upstream (one at a time) while the
/// downstream may request from any thread: deliveries go through a ``DeliveryQueue`` used one
/// value at a time, so one caller at a time delivers and a value stays in the buffer (where
/// the `whenFull` strategy applies to it) until a deliverer takes it.
///
/// ## Ending
/// - The upstream's `.finished` is delivered once every buffered value was delivered.
/// - A failure (the upstream's, or `.customError` when the buffer is full) is delivered as soon
///   as no delivery is in progress and either no value is left or the downstream has no demand
///   left (Combine's rule): the values the downstream asked for go first, and the values beyond
///   its demand are dropped. As in Combine, the upstream's failure is looked at when it
///   arrives, `.customError`'s at the downstream's next request (or when the delivery in
///   progress returns).
/// - Nothing is delivered before the downstream has its subscription (which it receives after
///   the upstream was asked for values, as in Combine): a completion that comes meanwhile
///   waits for it (``downstreamSubscribed()``).
@usableFromInline
struct BufferStateMachine<Output, Failure: Error> {
  /// What the storage does after a transition, once the lock is released, in this order.
  @usableFromInline
  struct Action {
    /// The upstream subscription to cancel (`customError`, or the downstream cancelled).
    @usableFromInline
    var cancel: (any Subscription)?
    /// With `keepFull`, a value left the buffer: ask this upstream subscription for one more.
    @usableFromInline
    var refill: (any Subscription)?
    /// The buffer overflowed with `customError`: the storage makes the error (outside the
    /// lock) and reports it with ``fail(with:)``.
    @usableFromInline
    var needsError = false
    /// If set, the caller is now the deliverer and delivers this.
    @usableFromInline
    var deliver: DeliveryItem<Output, Failure>?

    @inlinable
    init() {}
  }

  /// How the buffer ends, once the upstream is done.
  @usableFromInline
  enum Ending {
    /// Not decided: the upstream may still send (or `.customError`'s error is being made).
    case undecided
    /// The upstream finished: `.finished` follows the buffered values.
    case finishing
    /// A failure waiting for the values the downstream has demand for.
    case failing(Failure)
  }

  @usableFromInline
  let size: Int
  @usableFromInline
  let prefetch: Publishers.PrefetchStrategy
  @usableFromInline
  let whenFull: Publishers.BufferingStrategy<Failure>

  /// The upstream's subscription, while it may still send.
  @usableFromInline
  var upstream = OperatorStatus.awaitingSubscription
  /// Values received and not yet handed to a deliverer, oldest first.
  @usableFromInline
  var buffer = ValueQueue<Output>()
  /// What the downstream asked for and has not been handed yet.
  @usableFromInline
  var demand = Subscribers.Demand.none
  /// The deliverer role, and the completion once decided.
  @usableFromInline
  var delivery = DeliveryQueue<Output, Failure>()
  /// The completion waiting to follow the buffered values (back to `undecided` once handed
  /// to the delivery queue, or, for a failure, dropped at a cancel).
  @usableFromInline
  var ending = Ending.undecided
  /// Whether the downstream has its subscription: nothing is delivered before.
  @usableFromInline
  var downstreamHasSubscription = false

  @inlinable
  init(
    size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) {
    self.size = size
    self.prefetch = prefetch
    self.whenFull = whenFull
  }

  /// Whether the downstream may still receive something (no completion handed out, no
  /// cancel).
  @inlinable
  var isLive: Bool { !delivery.isClosed }

  /// The children of the buffer's `customMirror`, as Combine shows them: the buffered values,
  /// the upstream's state, the downstream's demand and the completion waiting to follow.
  var mirrorChildren: [Mirror.Child] {
    let terminal: Subscribers.Completion<Failure>? =
      switch ending {
      case .undecided: nil
      case .finishing: .finished
      case .failing(let failure): .failure(failure)
      }
    return [
      ("values", buffer.storage[buffer.head...].compactMap { $0 }), ("state", upstream),
      ("downstreamDemand", demand), ("terminal", terminal as Any),
    ]
  }

  // MARK: Upstream

  /// The upstream's subscription arrived: returns the demand to request from it, or `nil` if
  /// it must be cancelled.
  @inlinable
  mutating func receive(subscription: any Subscription) -> Subscribers.Demand? {
    guard isLive, case .awaitingSubscription = upstream else { return nil }
    upstream = .subscribed(subscription)
    switch prefetch {
    case .keepFull: return .max(size)
    case .byRequest: return .unlimited
    }
  }

  /// The upstream sent a value.
  @inlinable
  mutating func receive(_ value: Output) -> Action {
    var action = Action()
    guard isLive, case .subscribed(let subscription) = upstream else { return action }
    if buffer.count >= size {
      switch whenFull {
      case .dropNewest:
        return action
      case .dropOldest:
        if buffer.popFirst() == nil { return action }  // A buffer of size 0 keeps nothing.
      case .customError:
        upstream = .terminated
        action.cancel = subscription
        action.needsError = true
        return action
      }
    }
    buffer.append(value)
    // Each strategy made room above, or returned.
    assert(buffer.count <= size, "the buffer holds more than its size")
    produce(&action)
    return action
  }

  /// The upstream completed.
  @inlinable
  mutating func receive(completion: Subscribers.Completion<Failure>) -> Action {
    var action = Action()
    guard isLive, upstream.isSubscribed else { return action }
    upstream = .terminated
    // The upstream's completion is the first way to end: `.customError` terminated the
    // upstream already.
    assert(isUndecided, "the buffer's ending was decided before the upstream completed")
    switch completion {
    case .finished: ending = .finishing
    case .failure(let failure): ending = .failing(failure)
    }
    produce(&action)
    return action
  }

  /// The `customError` closure made `error` after an overflow. As in Combine, it waits for the
  /// downstream's next request (or the end of the delivery in progress) to be delivered.
  @inlinable
  mutating func fail(with error: Failure) {
    guard isLive, !isFailing else { return }
    // The overflow terminated the upstream, so no completion of its own came meanwhile.
    assert(isUndecided, "the buffer's ending was decided before its overflow error")
    ending = .failing(error)
  }

  /// The downstream received its subscription: what the upstream sent meanwhile may go out.
  @inlinable
  mutating func downstreamSubscribed() -> Action {
    var action = Action()
    downstreamHasSubscription = true
    guard isLive else { return action }
    produce(&action)
    return action
  }

  // MARK: Downstream

  /// The downstream asked for more.
  @inlinable
  mutating func request(_ more: Subscribers.Demand) -> Action {
    var action = Action()
    guard isLive else { return action }
    demand += more
    produce(&action)
    return action
  }

  /// The deliverer delivered a value and the downstream asked for `more`: returns what to do
  /// next (if `deliver` is unset, the caller gave up the deliverer role).
  @inlinable
  mutating func didDeliver(requesting more: Subscribers.Demand) -> Action {
    var action = Action()
    if isLive { demand += more }
    if let item = delivery.next() {
      action.deliver = item
    } else {
      produce(&action)
    }
    return action
  }

  /// The downstream cancelled: returns the upstream subscription to cancel.
  @inlinable
  mutating func cancel() -> (any Subscription)? {
    delivery.close()
    buffer.removeAll()
    if isFailing { ending = .undecided }
    defer { upstream = .terminated }
    if case .subscribed(let subscription) = upstream { return subscription }
    return nil
  }

  // MARK: Helpers

  @inlinable
  var isUndecided: Bool {
    if case .undecided = ending { return true }
    return false
  }

  @inlinable
  var isFailing: Bool {
    if case .failing = ending { return true }
    return false
  }

  /// Hands the oldest buffered value to the caller if nobody delivers and the downstream has
  /// demand, then decides whether the buffer ends.
  @inlinable
  mutating func produce(_ action: inout Action) {
    guard downstreamHasSubscription else { return }
    if !delivery.isDelivering, demand > 0, let value = buffer.popFirst() {
      demand -= 1
      if prefetch == .keepFull, case .subscribed(let subscription) = upstream {
        action.refill = subscription
      }
      if let value = delivery.offer(value) { action.deliver = .value(value) }
    }
    if case .finishing = ending, buffer.isEmpty {
      ending = .undecided
      if let item = delivery.complete(.finished, droppingQueued: false) { action.deliver = item }
    } else if case .failing(let failure) = ending, !delivery.isDelivering,
      buffer.isEmpty || demand == 0
    {
      ending = .undecided
      buffer.removeAll()
      if let item = delivery.complete(.failure(failure), droppingQueued: false) {
        action.deliver = item
      }
    }
  }
}
