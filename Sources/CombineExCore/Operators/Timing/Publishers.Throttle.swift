extension Publisher {
  /// Publishes either the most-recent or first element published by the upstream publisher in
  /// the specified time interval.
  ///
  /// The first value is emitted at once (from work scheduled on `scheduler`); after an
  /// emission, at most one value is emitted per `interval`: the next emission happens
  /// `interval` after the previous one, with the latest value received meanwhile
  /// (`latest: true`) or the first one (`latest: false`). A value arriving more than
  /// `interval` after the previous emission is emitted at once again.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .throttle(for: .seconds(1), scheduler: scheduler, latest: true)
  ///   .sink { print($0) }
  /// subject.send(1)
  /// scheduler.advance()  // Prints: 1 (the first value goes out at once)
  /// subject.send(2)
  /// subject.send(3)
  /// scheduler.advance(by: .seconds(1))  // Prints: 3 (the latest of the interval)
  /// ```
  ///
  /// - Demand: the upstream is asked for unlimited values; a value that arrives while the
  ///   subscriber has no outstanding demand is dropped.
  /// - Completion: if a value is waiting for its emission, the completion follows it;
  ///   otherwise it is delivered from work scheduled at once.
  /// - Cancellation: nothing is delivered once `cancel()` has returned.
  ///
  /// - Parameters:
  ///   - interval: The interval at which to find and emit either the most recent or the first
  ///     element.
  ///   - scheduler: The scheduler on which to publish elements.
  ///   - latest: A Boolean value that indicates whether to publish the most recent element. If
  ///     `false`, the publisher emits the first element received during the interval.
  /// - Returns: A publisher that emits either the most-recent or first element received during
  ///   the specified interval.
  public func throttle<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  ) -> Publishers.Throttle<Self, S> {
    Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
  }
}

extension Publishers {
  /// A publisher that publishes either the most-recent or first element published by the
  /// upstream publisher in a specified time interval.
  public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The interval in which to find and emit the most recent element.
    public let interval: Context.SchedulerTimeType.Stride

    /// The scheduler on which to publish elements.
    public let scheduler: Context

    /// A Boolean value indicating whether to publish the most recent element.
    ///
    /// If `false`, the publisher emits the first element received during the interval.
    public let latest: Bool

    /// Creates a publisher that throttles `upstream` to one element per `interval`.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      latest: Bool
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.latest = latest
    }

    /// Attaches the subscriber through a throttling subscription.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.receive(
        subscriber: ThrottleSubscription<Upstream, Context, S>(
          downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
    }
  }
}

/// The subscription of ``Publishers/Throttle``.
///
/// State (under `lock`): the value waiting for its emission (at most one, with one emission
/// scheduled for it), the time of the last emission, the subscriber's outstanding demand, and
/// a completion waiting for the pending emission. Events are put in the outbox under `lock`
/// (the outbox's lock nests inside it and calls nothing out), so their order is the order of
/// the decisions.
///
/// Not on the ``OperatorDriver``: it delivers from work scheduled on the scheduler, on any
/// thread, so the subscriber sits in a ``SerialOutbox`` (one deliverer at a time, in order)
/// and the operator's state is shared with its timers; the driver delivers on the upstream's
/// thread only.
final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked Sendable: every mutable property is guarded by `lock`; the outbox is
  // thread-safe.
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var demand = Subscribers.Demand.none
  /// The value the scheduled emission will send.
  private var pending: Input?
  /// Whether an emission is scheduled.
  private var emissionScheduled = false
  private var lastEmission: Context.SchedulerTimeType?
  /// A completion that arrived while an emission was scheduled; it follows the emission.
  private var pendingCompletion: Subscribers.Completion<Failure>?
  private let outbox: SerialOutbox<Downstream>
  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let latest: Bool

  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    latest: Bool
  ) {
    outbox = SerialOutbox(downstream: downstream)
    self.interval = interval
    self.scheduler = scheduler
    self.latest = latest
  }

  var description: String { "Throttle" }

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
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let now = scheduler.now
    /// `nil`: nothing to schedule; `.some(nil)`: emit at once; `.some(date)`: emit at `date`.
    let due = lock.withLock { () -> Context.SchedulerTimeType?? in
      guard status.isSubscribed, demand > .none else { return nil }
      if emissionScheduled {
        if latest { pending = input }
        return nil
      }
      pending = input
      emissionScheduled = true
      guard let lastEmission else { return .some(nil) }
      let next = lastEmission.advanced(by: interval)
      return .some(now < next ? next : nil)
    }
    switch due {
    case .none:
      break
    case .some(.none):
      scheduler.schedule(options: nil) { [self] in emit() }
    case .some(.some(let date)):
      scheduler.schedule(after: date, tolerance: scheduler.minimumTolerance, options: nil) {
        [self] in
        emit()
      }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let scheduleNow = lock.withLock { () -> Bool in
      guard status.isSubscribed else { return false }
      status = .terminated
      if emissionScheduled {
        pendingCompletion = completion
        return false
      }
      outbox.enqueue(.completion(completion))
      return true
    }
    guard scheduleNow else { return }
    scheduler.schedule(options: nil) { [outbox] in
      _ = outbox.deliverOne()
    }
  }

  /// The scheduled emission: sends the pending value (and a completion that waited for it).
  private func emit() {
    let now = scheduler.now
    let (sendsValue, sendsCompletion) = lock.withLock { () -> (Bool, Bool) in
      guard emissionScheduled else { return (false, false) }
      emissionScheduled = false
      lastEmission = now
      var sendsValue = false
      if let value = pending, demand > .none {
        demand -= 1
        outbox.enqueue(.value(value))
        sendsValue = true
      }
      pending = nil
      guard let completion = pendingCompletion else { return (sendsValue, false) }
      pendingCompletion = nil
      outbox.enqueue(.completion(completion))
      return (sendsValue, true)
    }
    if sendsValue {
      let more = outbox.deliverOne()
      if more > .none {
        lock.withLock { demand += more }
      }
    }
    if sendsCompletion {
      _ = outbox.deliverOne()
    }
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    lock.withLock {
      guard status.isSubscribed else { return }
      self.demand += demand
    }
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        status = .terminated
        pending = nil
        pendingCompletion = nil
        emissionScheduled = false
      }
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    outbox.close()
    upstream?.cancel()
  }
}

extension ThrottleSubscription: NamedReflection {}
