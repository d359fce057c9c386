extension Publisher {
  /// Terminates publishing if the upstream publisher exceeds the specified time interval
  /// without producing an element.
  ///
  /// A timer of `interval` starts when the subscription starts and restarts with the
  /// subscriber's first request and with every value, as in Combine. If it fires before the next
  /// value, the upstream is cancelled and the publisher finishes, or fails with
  /// `customError()` when given. Values and the upstream's completion are delivered from work
  /// scheduled on `scheduler`.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .timeout(.seconds(5), scheduler: scheduler)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// subject.send(1)
  /// scheduler.advance(by: .seconds(4))  // Prints: 1
  /// scheduler.advance(by: .seconds(1))  // Prints: finished — five seconds without a value
  /// ```
  ///
  /// - Demand: passes straight to the upstream; the demand a delivered value returns is
  ///   requested from the upstream.
  /// - Cancellation: cancels the timer and the upstream; nothing is delivered once `cancel()`
  ///   has returned. A timeout drops values still waiting for delivery.
  ///
  /// - Parameters:
  ///   - interval: The maximum time interval the publisher can go without emitting an
  ///     element, expressed in the time system of the scheduler.
  ///   - scheduler: The scheduler to deliver events on.
  ///   - options: Scheduler options that customize the delivery of elements.
  ///   - customError: A closure that executes if the publisher times out. The publisher sends
  ///     the failure returned by this closure to the subscriber as the reason for termination.
  /// - Returns: A publisher that terminates if the specified interval elapses with no events
  ///   received from the upstream publisher.
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> Failure)? = nil
  ) -> Publishers.Timeout<Self, S> {
    Publishers.Timeout(
      upstream: self, interval: interval, scheduler: scheduler, options: options,
      customError: customError)
  }
}

extension Publishers {
  /// A publisher that terminates if the upstream goes too long without producing an element.
  public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum time interval the publisher can go without emitting an element.
    public let interval: Context.SchedulerTimeType.Stride

    /// The scheduler on which to deliver events.
    public let scheduler: Context

    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// A closure that returns the failure to publish on timeout (`nil`: finish normally).
    public let customError: (() -> Upstream.Failure)?

    /// Creates a publisher that times `upstream` out after `interval` without a value.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?,
      customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.options = options
      self.customError = customError
    }

    /// Attaches the subscriber through a subscription with a timeout timer.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(
        TimeoutSubscription<Upstream, Context, S>(
          downstream: subscriber, interval: interval, scheduler: scheduler, options: options,
          customError: customError))
    }
  }
}

/// The subscription of ``Publishers/Timeout``.
///
/// It makes Combine's scheduler calls: a timer (`now`, `minimumTolerance`, then a repeating
/// `schedule(after:interval:tolerance:options:)`, cancelled when replaced) starts when the
/// upstream's subscription arrives, before the downstream receives its own, and restarts at
/// the downstream's first request (of any demand) and with each value; each value and the
/// upstream's completion is delivered from `schedule(options:)`. The demand the downstream
/// returns from a value is requested from the upstream when that value is delivered.
///
/// State (under `lock`): the upstream link (kept until the completion is delivered, so that a
/// cancel meanwhile still reaches the upstream, as in Combine), the current timer and its
/// generation (bumped by every restart, so that a timer that fires after a restart does
/// nothing), whether the upstream completed and whether the downstream requested. Values and
/// the completion go through a ``SerialOutbox``; a timeout replaces whatever is still waiting
/// with its completion.
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
final class TimeoutSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked Sendable: every mutable property is guarded by `lock`; the outbox is
  // thread-safe; the rest are constants. Hence no runtime exclusivity checks on the `var`s
  // (`@exclusivity(unchecked)`): they cost about 3,300 instructions per `s.Timeout`
  // subscription, 17% of it.
  @usableFromInline
  typealias Input = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  /// The specialized entry points of the events (see the type's header). They capture
  /// nothing (no allocation).
  @usableFromInline
  let entries: SubscriberEntries<TimeoutSubscription, Input, Failure>

  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var status = OperatorStatus.awaitingSubscription
  /// The upstream completed: its completion waits for delivery, and the timer is stopped.
  @usableFromInline
  @exclusivity(unchecked)
  var completed = false
  @usableFromInline
  @exclusivity(unchecked)
  var generation: UInt64 = 0
  @usableFromInline
  @exclusivity(unchecked)
  var timer: (any Cancellable)?
  @usableFromInline
  @exclusivity(unchecked)
  var hasRequested = false
  @usableFromInline
  let outbox: SerialOutbox<Downstream>
  @usableFromInline
  let interval: Context.SchedulerTimeType.Stride
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  let customError: (() -> Failure)?

  @inlinable
  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?, customError: (() -> Failure)?
  ) {
    outbox = SerialOutbox(downstream: downstream)
    self.interval = interval
    self.scheduler = scheduler
    self.options = options
    self.customError = customError
    entries = SubscriberEntries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
  }

  @usableFromInline
  var description: String { "Timeout" }

  /// Whether upstream events are still taken: subscribed, and the upstream has not completed.
  @inlinable
  var isLive: Bool { status.isSubscribed && !completed }

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
  func handle(subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    restartTimer()
    outbox.start(self)
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ isLive }) else { return .none }
    restartTimer()
    guard outbox.enqueue(.value(input)) else { return .none }
    scheduler.schedule(options: options) { [self] in deliver() }
    return .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    let timer = lock.withLock { () -> (any Cancellable)?? in
      guard isLive else { return nil }
      completed = true
      generation &+= 1
      defer { self.timer = nil }
      return .some(self.timer)
    }
    guard let timer else { return }
    timer?.cancel()
    guard outbox.enqueue(.completion(completion)) else { return }
    scheduler.schedule(options: options) { [self] in deliver() }
  }

  /// Scheduled work: delivers one event, and requests the demand the downstream returns from
  /// a value.
  @inlinable
  func deliver() {
    outbox.deliverOne(reportingEach: { demand in
      guard demand > .none else { return }
      lock.withLock { status.upstream }?.request(demand)
    })
    // The completion was delivered (the outbox is closed): the upstream is released.
    if !outbox.isOpen { lock.withLock { status = .terminated } }
  }

  /// Cancels the current timer and starts a new one of `interval` from now.
  @inlinable
  func restartTimer() {
    let (current, previous) = lock.withLock { () -> (UInt64?, (any Cancellable)?) in
      guard isLive else { return (nil, nil) }
      generation &+= 1
      defer { timer = nil }
      return (generation, timer)
    }
    previous?.cancel()
    guard let current else { return }
    // A repeating schedule, as in Combine, only so that it can be cancelled.
    let newTimer = scheduler.schedule(
      after: scheduler.now.advanced(by: interval), interval: interval,
      tolerance: scheduler.minimumTolerance, options: options
    ) { [self] in
      timeOut(current)
    }
    let stale = lock.withLock { () -> Bool in
      guard isLive, generation == current else { return true }
      timer = newTimer
      return false
    }
    if stale { newTimer.cancel() }
  }

  /// The timer of generation `fired` went off.
  @inlinable
  func timeOut(_ fired: UInt64) {
    let (upstream, timer) = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
      guard fired == generation, !completed, case .subscribed(let upstream) = status else {
        return (nil, nil)
      }
      status = .terminated
      generation &+= 1
      defer { self.timer = nil }
      return (upstream, self.timer)
    }
    guard let upstream else { return }
    timer?.cancel()
    upstream.cancel()
    let completion: Subscribers.Completion<Failure> =
      customError.map { .failure($0()) } ?? .finished
    guard outbox.replaceQueued(with: .completion(completion)) else { return }
    _ = outbox.deliverOne()
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func request(_ demand: Subscribers.Demand) { entries.request(self, demand) }

  @inlinable
  func cancel() { entries.cancel(self) }

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    let (upstream, restart) = lock.withLock { () -> ((any Subscription)?, Bool) in
      guard case .subscribed(let upstream) = status else { return (nil, false) }
      defer { hasRequested = true }
      return (upstream, !hasRequested)
    }
    if restart { restartTimer() }
    upstream?.request(demand)
  }

  @inlinable
  func handleCancel() {
    let (upstream, timer) = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
      defer {
        status = .terminated
        generation &+= 1
        self.timer = nil
      }
      return (status.upstream, self.timer)
    }
    timer?.cancel()
    outbox.close()
    upstream?.cancel()
  }
}

extension TimeoutSubscription: NamedReflection {}
