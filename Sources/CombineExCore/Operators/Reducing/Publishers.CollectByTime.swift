extension Publisher {
  /// Collects elements by a given time-grouping strategy, and emits a single array of the
  /// collection.
  ///
  /// A repeating timer of the strategy's stride starts with the subscription. At each tick,
  /// the values received since the previous group are emitted as one array (nothing is
  /// emitted for an empty interval). With `.byTimeOrCount`, a group is also emitted as soon as
  /// it holds `count` values (the timer keeps its rhythm).
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .collect(.byTimeOrCount(scheduler, .seconds(1), 2))
  ///   .sink { print($0) }
  /// subject.send(1)
  /// subject.send(2)  // Prints: [1, 2] — the count is reached
  /// subject.send(3)
  /// scheduler.advance(by: .seconds(1))  // Prints: [3] — the interval ended
  /// ```
  ///
  /// - Demand: each array uses one unit of the subscriber's demand; complete groups wait for
  ///   demand, in order. The upstream is asked as Combine asks it: with `.byTime`, for one
  ///   value at each request of the subscriber and one more for each value received (so the
  ///   buffer grows without bound when values come faster than they are taken); with
  ///   `.byTimeOrCount`, for `count` values per unit of demand the subscriber requests, or
  ///   returns from an array that reached the count (what it returns from an array the timer
  ///   or the finish emitted counts for the arrays only, as in Combine).
  /// - Completion: on finish, the values collected so far are emitted as a last array, then
  ///   `.finished` (after the subscriber has demanded every waiting array). A failure is
  ///   forwarded at once and what was collected is dropped.
  /// - Cancellation: stops the timer and cancels the upstream; nothing is delivered once
  ///   `cancel()` has returned.
  ///
  /// - Parameters:
  ///   - strategy: The timing group strategy used by the operator to collect and publish
  ///     elements.
  ///   - options: Scheduler options to use for the strategy.
  /// - Returns: A publisher that collects elements by a given strategy, and emits a single
  ///   array of the collection.
  public func collect<S: Scheduler>(
    _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
  ) -> Publishers.CollectByTime<Self, S> {
    Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
  }
}

extension Publishers {
  /// A strategy for collecting received elements.
  public enum TimeGroupingStrategy<Context: Scheduler> {
    /// A grouping that collects and periodically publishes items.
    case byTime(Context, Context.SchedulerTimeType.Stride)

    /// A grouping that collects and publishes items periodically or when a buffer reaches a
    /// maximum size.
    case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
  }

  /// A publisher that buffers and periodically publishes its items.
  public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: arrays of the upstream's values.
    public typealias Output = [Upstream.Output]

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The strategy with which to collect and publish elements.
    public let strategy: Publishers.TimeGroupingStrategy<Context>

    /// Scheduler options to use for the strategy.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that collects the elements of `upstream` by `strategy`.
    public init(
      upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.strategy = strategy
      self.options = options
    }

    /// Attaches the subscriber through a collecting subscription.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == [Upstream.Output], S.Failure == Upstream.Failure {
      let scheduler: Context
      let stride: Context.SchedulerTimeType.Stride
      let count: Int
      switch strategy {
      case .byTime(let context, let interval):
        (scheduler, stride, count) = (context, interval, .max)
      case .byTimeOrCount(let context, let interval, let limit):
        checkAPI(limit > 0, "collect(.byTimeOrCount) needs a count above zero, not \(limit).")
        (scheduler, stride, count) = (context, interval, limit)
      }
      upstream.subscribe(
        CollectByTimeSubscription<Upstream, Context, S>(
          downstream: subscriber, scheduler: scheduler, stride: stride, count: count,
          options: options))
    }
  }
}

/// The subscription of ``Publishers/CollectByTime``.
///
/// State (under `lock`): the group being collected, the complete groups waiting for demand
/// (oldest first), the subscriber's outstanding demand, a `.finished` waiting for those groups,
/// and the timer. Groups are put in the outbox under `lock` (the outbox's lock nests inside it
/// and calls nothing out), so they keep their order whichever thread (upstream, timer,
/// requester) emits them.
///
/// Not on the ``OperatorDriver``: it delivers from work scheduled on the scheduler, on any
/// thread, so the subscriber sits in a ``SerialOutbox`` (one deliverer at a time, in order)
/// and the operator's state is shared with its timers; the driver delivers on the upstream's
/// thread only.
final class CollectByTimeSubscription<
  Upstream: Publisher, Context: Scheduler, Downstream: Subscriber
>: Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
  // @unchecked Sendable: every mutable property is guarded by `lock`; the outbox is
  // thread-safe; the rest are constants.
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  /// The upstream's subscription while connected; `terminated` after the completion or a
  /// cancel (the timer is then cancelled, and one made meanwhile is not kept).
  private var status = OperatorStatus.awaitingSubscription
  private var demand = Subscribers.Demand.none
  /// The group being collected (while connected).
  private var current: [Input] = []
  /// Groups made and waiting for demand, oldest first.
  private var ready: [[Input]] = []
  /// The upstream finished: `.finished` follows the ready groups (only once terminated).
  private var finishing = false
  private var timer: (any Cancellable)?
  private let outbox: SerialOutbox<Downstream>
  private let scheduler: Context
  private let stride: Context.SchedulerTimeType.Stride
  /// The group size that emits at once: `count` for `.byTimeOrCount`, `Int.max` for `.byTime`.
  private let count: Int
  private let options: Context.SchedulerOptions?

  /// Whether the upstream is asked one value at a time (`.byTime`) rather than `count` values
  /// per unit of demand (`.byTimeOrCount`), as Combine asks it.
  private var asksOneAtATime: Bool { count == .max }

  init(
    downstream: Downstream, scheduler: Context, stride: Context.SchedulerTimeType.Stride,
    count: Int, options: Context.SchedulerOptions?
  ) {
    outbox = SerialOutbox(downstream: downstream)
    self.scheduler = scheduler
    self.stride = stride
    self.count = count
    self.options = options
  }

  var description: String { "CollectByTime" }

  // MARK: Subscriber (upstream side)

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = status else { return false }
      status = .subscribed(subscription)
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    outbox.start(self)
    let newTimer = scheduler.schedule(
      after: scheduler.now.advanced(by: stride), interval: stride,
      tolerance: scheduler.minimumTolerance, options: options
    ) { [self] in
      tick()
    }
    let keep = lock.withLock { () -> Bool in
      guard status.isSubscribed else { return false }
      timer = newTimer
      return true
    }
    if !keep { newTimer.cancel() }
    // Nothing is requested here: the subscriber's requests ask the upstream (``request(_:)``).
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let full = lock.withLock { () -> Bool? in
      guard status.isSubscribed else { return nil }
      current.append(input)
      guard current.count >= count else { return false }
      ready.append(current)
      current = []
      return true
    }
    guard let full else { return .none }
    if full { emit() }
    // `.byTime` asks for one more value per value, as Combine does; `.byTimeOrCount` returns
    // nothing here (a full group's demand is requested by `emit`).
    return asksOneAtATime ? .max(1) : .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let timer = lock.withLock { () -> (any Cancellable)?? in
      guard status.isSubscribed else { return nil }
      status = .terminated
      switch completion {
      case .finished:
        if !current.isEmpty { ready.append(current) }
        current = []
        finishing = true
      case .failure:
        current = []
        ready = []
        outbox.replaceQueued(with: .completion(completion))
      }
      defer { self.timer = nil }
      return .some(self.timer)
    }
    guard let timer else { return }
    timer?.cancel()
    if case .failure = completion {
      _ = outbox.deliverOne()
    } else {
      emit()
    }
  }

  /// The timer: the group collected so far becomes ready.
  private func tick() {
    let hasGroup = lock.withLock { () -> Bool in
      guard status.isSubscribed, !current.isEmpty else { return false }
      ready.append(current)
      current = []
      return true
    }
    if hasGroup { emit() }
  }

  /// Sends ready groups while there is demand, then `.finished` if it waits for them.
  ///
  /// The demand the subscriber returns counts for the groups. For a group that reached the
  /// count, it also asks the upstream for `count` values per unit, as a request would; for a
  /// group the timer or the finish emitted, it does not (Combine ignores it there).
  private func emit() {
    while true {
      let step = lock.withLock { () -> (sent: Bool, full: Bool)? in
        if !ready.isEmpty, demand > .none {
          demand -= 1
          let group = ready.removeFirst()
          let full = group.count >= count
          outbox.enqueue(.value(group))
          return (true, full)
        }
        if ready.isEmpty, finishing {
          assert(!status.isSubscribed, "finishing while the upstream may still send")
          finishing = false
          outbox.enqueue(.completion(.finished))
          return (false, false)
        }
        return nil
      }
      guard let step else { return }
      let more = outbox.deliverOne()
      guard step.sent else { return }
      guard more > .none else { continue }
      let upstream = lock.withLock { () -> (any Subscription)? in
        demand += more
        guard step.full, case .subscribed(let upstream) = status else { return nil }
        return upstream
      }
      upstream?.request(more * count)
    }
  }

  // MARK: Subscription (downstream side)

  /// Counts the demand for groups and asks the upstream as Combine does: one value (`.byTime`)
  /// or `count` values per unit (`.byTimeOrCount`).
  func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    let upstream = lock.withLock { () -> (any Subscription)? in
      self.demand += demand
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.request(asksOneAtATime ? .max(1) : demand * count)
    emit()
  }

  func cancel() {
    let (upstream, timer) = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
      defer {
        status = .terminated
        current = []
        ready = []
        finishing = false
        self.timer = nil
      }
      guard case .subscribed(let upstream) = status else { return (nil, self.timer) }
      return (upstream, self.timer)
    }
    timer?.cancel()
    outbox.close()
    upstream?.cancel()
  }
}
