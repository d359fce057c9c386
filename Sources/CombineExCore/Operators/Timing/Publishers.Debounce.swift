extension Publisher {
  /// Publishes elements only after a specified time interval elapses between events.
  ///
  /// Each value starts (or restarts) a timer of `dueTime`; when the timer fires with no newer
  /// value in between, the latest value is delivered, from work scheduled on `scheduler`.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let subject = PassthroughSubject<String, Never>()
  /// let cancellable = subject
  ///   .debounce(for: .milliseconds(300), scheduler: scheduler)
  ///   .sink { print($0) }
  /// subject.send("s")
  /// subject.send("sw")
  /// scheduler.advance(by: .milliseconds(100))
  /// subject.send("swift")
  /// scheduler.advance(by: .milliseconds(300))
  /// // Prints: swift
  /// ```
  ///
  /// - Demand: the upstream is asked for unlimited values; a value whose timer fires while
  ///   the subscriber has no outstanding demand is dropped.
  /// - Completion: a finish or a failure is delivered from work scheduled on `scheduler` at
  ///   once, and a value still waiting for its timer is dropped, as in Combine.
  /// - Cancellation: cancels the timer and the upstream; nothing is delivered once `cancel()`
  ///   has returned.
  ///
  /// - Parameters:
  ///   - dueTime: The time the publisher should wait before publishing an element.
  ///   - scheduler: The scheduler on which this publisher delivers elements.
  ///   - options: Scheduler options that customize this publisher's delivery of elements.
  /// - Returns: A publisher that publishes events only after a specified time elapses.
  public func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Debounce<Self, S> {
    Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that publishes elements only after a specified time interval elapses between
  /// events.
  public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The amount of time the publisher should wait before publishing an element.
    public let dueTime: Context.SchedulerTimeType.Stride

    /// The scheduler on which this publisher delivers elements.
    public let scheduler: Context

    /// Scheduler options that customize this publisher's delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that debounces `upstream` by `dueTime` on `scheduler`.
    public init(
      upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.dueTime = dueTime
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber through a debouncing subscription.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(
        DebounceSubscription<Upstream, Context, S>(
          downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
    }
  }
}

/// The subscription of ``Publishers/Debounce``.
///
/// State (under `lock`): the latest value and its generation (a counter bumped by every
/// value), the timer of that generation, and the subscriber's outstanding demand. A timer
/// delivers only if its generation is still the latest, so a timer that fires just as a new
/// value arrives does nothing. Events are put in the outbox under `lock` (the outbox's own lock
/// nests inside it and calls nothing out), so their order is the order of the decisions.
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
final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked Sendable: every mutable property is guarded by `lock`; the outbox is
  // thread-safe.
  @usableFromInline
  typealias Input = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  /// The specialized entry points of the events (see the type's header). They capture
  /// nothing (no allocation).
  @usableFromInline
  let entries: SubscriberEntries<DebounceSubscription, Input, Failure>

  @usableFromInline
  let lock = Lock()
  @usableFromInline
  var status = OperatorStatus.awaitingSubscription
  @usableFromInline
  var demand = Subscribers.Demand.none
  @usableFromInline
  var latest: Input?
  @usableFromInline
  var generation: UInt64 = 0
  @usableFromInline
  var timer: (any Cancellable)?
  @usableFromInline
  let outbox: SerialOutbox<Downstream>
  @usableFromInline
  let dueTime: Context.SchedulerTimeType.Stride
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?

  @inlinable
  init(
    downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?
  ) {
    outbox = SerialOutbox(downstream: downstream)
    self.dueTime = dueTime
    self.scheduler = scheduler
    self.options = options
    entries = SubscriberEntries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
  }

  @usableFromInline
  var description: String { "Debounce" }

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

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    let (current, previousTimer) = lock.withLock { () -> (UInt64?, (any Cancellable)?) in
      guard status.isSubscribed else { return (nil, nil) }
      generation &+= 1
      latest = input
      defer { timer = nil }
      return (generation, timer)
    }
    guard let current else { return .none }
    previousTimer?.cancel()
    // A repeating schedule, as in Combine, only so that it can be cancelled: the first firing
    // delivers (or finds a newer generation) and cancels it.
    let newTimer = scheduler.schedule(
      after: scheduler.now.advanced(by: dueTime), interval: dueTime,
      tolerance: scheduler.minimumTolerance, options: options
    ) { [self] in
      fire(current)
    }
    let stale = lock.withLock { () -> Bool in
      guard status.isSubscribed, generation == current, latest != nil else { return true }
      timer = newTimer
      return false
    }
    if stale { newTimer.cancel() }
    return .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    let timer = lock.withLock { () -> (any Cancellable)?? in
      guard status.isSubscribed else { return nil }
      status = .terminated
      latest = nil
      outbox.enqueue(.completion(completion))
      defer { self.timer = nil }
      return .some(self.timer)
    }
    guard let timer else { return }
    timer?.cancel()
    // Without the options, as Combine schedules the completion.
    scheduler.schedule(options: nil) { [outbox] in
      _ = outbox.deliverOne()
    }
  }

  /// A timer fired: delivers the latest value if it is still the latest and there is demand.
  @inlinable
  func fire(_ fired: UInt64) {
    let (deliver, timer) = lock.withLock { () -> (Bool, (any Cancellable)?) in
      guard status.isSubscribed, fired == generation, let value = latest else {
        return (false, nil)
      }
      latest = nil
      defer { self.timer = nil }
      guard demand > .none else { return (false, self.timer) }
      demand -= 1
      // Enqueued under the lock, so that a completion received meanwhile comes after it.
      outbox.enqueue(.value(value))
      return (true, self.timer)
    }
    timer?.cancel()
    guard deliver else { return }
    let more = outbox.deliverOne()
    if more > .none {
      lock.withLock { demand += more }
    }
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    lock.withLock {
      guard status.isSubscribed else { return }
      self.demand += demand
    }
  }

  @inlinable
  func handleCancel() {
    let (upstream, timer) = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
      defer {
        status = .terminated
        latest = nil
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

// As in Combine: the downstream, its demand and the value waiting for the quiet period.
extension DebounceSubscription: NamedReflection {
  @usableFromInline
  var customMirror: Mirror {
    let downstream: Downstream? = outbox.lock.withLock { outbox.downstream }
    let state: (Subscribers.Demand, Input?) = lock.withLock { (self.demand, self.latest) }
    let children: [Mirror.Child] = [
      ("downstream", downstream as Any), ("downstreamDemand", state.0),
      ("currentValue", state.1 as Any),
    ]
    return Mirror(self, children: children)
  }
}
