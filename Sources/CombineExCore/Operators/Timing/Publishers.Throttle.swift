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
  /// scheduler.advance()  // Prints: 1 — the first value goes out at once
  /// subject.send(2)
  /// subject.send(3)
  /// scheduler.advance(by: .seconds(1))  // Prints: 3 — the latest of the interval
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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(
        ThrottleSubscription<Upstream, Context, S>(
          downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
    }
  }
}

/// The subscription of ``Publishers/Throttle``.
///
/// It makes Combine's scheduler calls: `now` when it is created, when the upstream's
/// subscription arrives, for each value and for the completion it receives while subscribed,
/// and when an emission delivers a value that no completion follows (the time of the last
/// emission); a value that can go out at once is scheduled with `schedule(options: nil)`, a later
/// one with `schedule(after:)` (which reads `minimumTolerance`), and a completion with nothing
/// waiting with `schedule(options: nil)`. A value takes its unit of demand when it is
/// scheduled; a value arriving without demand is dropped.
///
/// State (under `lock`): the phase (with the completion waiting for its emission), the value
/// waiting for the scheduled emission, the time of the last emission and the downstream's demand. Events are put in the
/// outbox under `lock` (the outbox's lock nests inside it and calls nothing out), so their order
/// is the order of the decisions. Scheduled work holds the subscription weakly, as Combine's
/// does: an emission due after everything let go of the subscription does nothing.
///
/// Not on the ``OperatorDriver``: it delivers from work scheduled on the scheduler, on any
/// thread, so the subscriber sits in a ``SerialOutbox`` (one deliverer at a time, in order)
/// and the operator's state is shared with its timers; the driver delivers on the upstream's
/// thread only.
///
/// `@usableFromInline` so that it is specialized at the operator's `receive(subscriber:)`; the
/// protocol methods only call ``entries``, closures made in the inlined init (see
/// ``SubscriberEntries``).
@usableFromInline
final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked Sendable: every mutable property is guarded by `lock`; the outbox is
  // thread-safe.
  @usableFromInline
  typealias Input = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  @usableFromInline
  enum Phase {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// The upstream completed; its completion waits for its emission.
    case completing(any Subscription, Subscribers.Completion<Failure>)
    case ended
  }

  /// The specialized entry points of the events (see the type's header). They capture
  /// nothing (no allocation).
  @usableFromInline
  let entries: SubscriberEntries<ThrottleSubscription, Input, Failure>

  @usableFromInline
  let lock = Lock()
  @usableFromInline
  var phase = Phase.awaitingSubscription
  @usableFromInline
  var demand = Subscribers.Demand.none
  /// The value waiting for its emission (while subscribed or completing).
  @usableFromInline
  var pendingInput: Input?
  @usableFromInline
  var lastEmission: Context.SchedulerTimeType?
  @usableFromInline
  let outbox: SerialOutbox<Downstream>
  @usableFromInline
  let interval: Context.SchedulerTimeType.Stride
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let latest: Bool

  @inlinable
  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    latest: Bool
  ) {
    outbox = SerialOutbox(downstream: downstream)
    self.interval = interval
    self.scheduler = scheduler
    self.latest = latest
    // Combine reads the time when its subscription is made; a scheduler that records its calls
    // (a test's) sees the same ones.
    _ = scheduler.now
    entries = SubscriberEntries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
  }

  @usableFromInline
  var description: String { "Throttle" }

  @usableFromInline
  var isSubscribed: Bool {
    if case .subscribed = phase { return true }
    return false
  }

  // MARK: Subscriber (upstream side)

  @inlinable
  func receive(subscription: any Subscription) { entries.subscription(self, subscription) }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand { entries.value(self, input) }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    entries.completion(self, completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) { entries.request(self, demand) }

  @inlinable
  func cancel() { entries.cancel(self) }

  // MARK: Handling the events (specialized, through `entries`)

  @inlinable
  func handle(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = phase else { return false }
      phase = .subscribed(subscription)
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    _ = scheduler.now  // As Combine does (see `init`).
    subscription.request(.unlimited)
    outbox.start(self)
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ isSubscribed }) else { return .none }
    let now = scheduler.now
    /// `nil`: nothing to schedule; `.some(nil)`: emit at once; `.some(date)`: emit at `date`.
    let due = lock.withLock { () -> Context.SchedulerTimeType?? in
      guard isSubscribed, demand > .none else { return nil }
      if pendingInput != nil {
        if latest { pendingInput = input }
        return nil
      }
      demand -= 1
      pendingInput = input
      guard let next = lastEmission?.advanced(by: interval), now < next else { return .some(nil) }
      return .some(next)
    }
    switch due {
    case .none:
      break
    case .some(.none):
      scheduler.schedule(options: nil) { [weak self] in self?.emit() }
    case .some(.some(let date)):
      scheduler.schedule(after: date, tolerance: scheduler.minimumTolerance, options: nil) {
        [weak self] in
        self?.emit()
      }
    }
    return .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ isSubscribed }) else { return }
    _ = scheduler.now  // As Combine does.
    let scheduleNow = lock.withLock { () -> Bool in
      guard case .subscribed(let upstream) = phase else { return false }
      phase = .completing(upstream, completion)
      // A value waiting for its emission takes the completion with it.
      return pendingInput == nil
    }
    guard scheduleNow else { return }
    scheduler.schedule(options: nil) { [weak self] in self?.emit() }
  }

  /// Scheduled work: delivers the waiting value, then the waiting completion.
  @inlinable
  func emit() {
    let stampsTime = lock.withLock { () -> Bool? in
      switch phase {
      case .awaitingSubscription, .ended: return nil
      case .subscribed: return pendingInput != nil
      case .completing: return false
      }
    }
    guard let stampsTime else { return }
    let now = stampsTime ? scheduler.now : nil
    let (sendsValue, sendsCompletion) = lock.withLock { () -> (Bool, Bool) in
      switch phase {
      case .awaitingSubscription, .ended: return (false, false)
      case .subscribed, .completing: break
      }
      if let now { lastEmission = now }
      var sendsValue = false
      if let value = pendingInput {
        outbox.enqueue(.value(value))
        sendsValue = true
      }
      pendingInput = nil
      guard case .completing(_, let completion) = phase else { return (sendsValue, false) }
      phase = .ended
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

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    guard demand > .none else { return }
    lock.withLock {
      guard isSubscribed else { return }
      self.demand += demand
    }
  }

  @inlinable
  func handleCancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        phase = .ended
        pendingInput = nil
      }
      switch phase {
      case .subscribed(let upstream), .completing(let upstream, _): return upstream
      case .awaitingSubscription, .ended: return nil
      }
    }
    outbox.close()
    upstream?.cancel()
  }
}

extension ThrottleSubscription: NamedReflection {}
