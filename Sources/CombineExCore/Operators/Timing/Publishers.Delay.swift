extension Publisher {
  /// Delays delivery of all output to the downstream receiver by a specified amount of time on
  /// a particular scheduler.
  ///
  /// Each value, and the completion (finished or failure), is delivered `interval` after the
  /// upstream sent it, from work scheduled on `scheduler`, in the upstream's order. Demand and
  /// cancellation pass straight to the upstream; the demand the subscriber returns from a
  /// delayed value is requested from the upstream when that value is delivered.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let cancellable = Just("hello")
  ///   .delay(for: .seconds(1), scheduler: scheduler)
  ///   .sink { print($0) }
  /// scheduler.advance(by: .milliseconds(999))  // Nothing yet.
  /// scheduler.advance(by: .milliseconds(1))
  /// // Prints: hello
  /// ```
  ///
  /// Once `cancel()` returns, nothing more is delivered.
  ///
  /// - Parameters:
  ///   - interval: The amount of time to delay.
  ///   - tolerance: The allowed tolerance in firing delayed events (the scheduler's minimum
  ///     tolerance when `nil`).
  ///   - scheduler: The scheduler to deliver the delayed events.
  ///   - options: Options relevant to the scheduler's behavior.
  /// - Returns: A publisher that delays delivery of elements and completion to the downstream
  ///   receiver.
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Delay<Self, S> {
    Publishers.Delay(
      upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
      scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that delays delivery of elements and completion to the downstream receiver.
  public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The amount of time to delay.
    public let interval: Context.SchedulerTimeType.Stride

    /// The allowed tolerance in firing delayed events.
    public let tolerance: Context.SchedulerTimeType.Stride

    /// The scheduler to deliver the delayed events.
    public let scheduler: Context

    /// Options relevant to the scheduler's behavior.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delays the events of `upstream` by `interval` on `scheduler`.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
      tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions? = nil
    ) {
      self.upstream = upstream
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber through a subscription that delivers each event late.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.subscribe(
        DelaySubscription<Output, Failure, Context, S>(
          downstream: subscriber, interval: interval, tolerance: tolerance, scheduler: scheduler,
          options: options))
    }
  }
}

/// The subscription of ``Publishers/Delay``: requests and the cancel pass straight to the
/// upstream; each upstream value and the completion is delivered from work scheduled
/// `interval` after it arrived, as in Combine: for each event the scheduler's `now` is read
/// once and `schedule(after:tolerance:options:)` called once, and the demand the downstream
/// returns from a value is requested from the upstream when that value is delivered (even
/// after the upstream completed, while the completion waits). Nothing is scheduled for what
/// arrives before the upstream's subscription, after its completion or after a cancel.
///
/// Events reach the downstream through a ``SerialOutbox``: one at a time, in the upstream's
/// order, even on a concurrent scheduler, and nothing after `cancel()` returns (Combine
/// delivers a completion scheduled before the cancel; the core does not: rule 2).
///
/// Not on the ``OperatorDriver``: it delivers from scheduled work, on any thread (the driver
/// delivers on the upstream's thread only). As Combine's, it has no description, mirror or
/// playground value of its own.
///
/// `@usableFromInline` so that it is specialized at the operator's `receive(subscriber:)`; the
/// protocol methods only call ``entries``, closures made in the inlined init (see
/// ``SubscriberEntries``).
@usableFromInline
final class DelaySubscription<Input, Failure: Error, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Failure {
  // @unchecked Sendable: `phase` is guarded by `lock`; the outbox is thread-safe; the other
  // properties are constants.

  /// Where the subscription is in its life, with the upstream's subscription while it is kept.
  @usableFromInline
  enum Phase {
    /// Waiting for the upstream's subscription.
    case awaitingSubscription
    /// Connected: values and the completion are scheduled as they come.
    case subscribed(any Subscription)
    /// The upstream completed: nothing more is scheduled, but its subscription is kept (the
    /// downstream's requests still reach it) until the delayed completion is delivered.
    case completed(any Subscription)
    /// The completion was delivered, or the downstream cancelled (a subscription that arrives
    /// then is cancelled).
    case ended

    /// The upstream's subscription, while it is kept.
    @inlinable
    var upstream: (any Subscription)? {
      switch self {
      case .subscribed(let upstream), .completed(let upstream): upstream
      case .awaitingSubscription, .ended: nil
      }
    }

    @inlinable
    var isSubscribed: Bool {
      if case .subscribed = self { return true }
      return false
    }
  }

  /// The specialized entry points of the events (see the type's header). They capture
  /// nothing (no allocation).
  @usableFromInline
  let entries: SubscriberEntries<DelaySubscription, Input, Failure>

  @usableFromInline
  let lock = Lock()
  @usableFromInline
  var phase = Phase.awaitingSubscription
  @usableFromInline
  let outbox: SerialOutbox<Downstream>
  @usableFromInline
  let interval: Context.SchedulerTimeType.Stride
  @usableFromInline
  let tolerance: Context.SchedulerTimeType.Stride
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?

  @inlinable
  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride,
    tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?
  ) {
    outbox = SerialOutbox(downstream: downstream)
    self.interval = interval
    self.tolerance = tolerance
    self.scheduler = scheduler
    self.options = options
    entries = SubscriberEntries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
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
    outbox.start(self)
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ phase.isSubscribed }), outbox.enqueue(.value(input)) else {
      return .none
    }
    schedule()
    return .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    let live = lock.withLock { () -> Bool in
      guard case .subscribed(let upstream) = phase else { return false }
      phase = .completed(upstream)
      return true
    }
    guard live, outbox.enqueue(.completion(completion)) else { return }
    schedule()
  }

  /// Schedules the delivery of the oldest waiting event, `interval` from now.
  @inlinable
  func schedule() {
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options
    ) { [self] in
      outbox.deliverOne(reportingEach: { demand in
        guard demand > .none else { return }
        lock.withLock { phase.upstream }?.request(demand)
      })
      // The completion was delivered (the outbox is closed): the upstream is released.
      if !outbox.isOpen {
        lock.withLock {
          // The outbox closes only after the completion or at a cancel.
          assert(!phase.isSubscribed, "the outbox closed while the upstream may still send")
          phase = .ended
        }
      }
    }
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    lock.withLock { phase.upstream }?.request(demand)
  }

  @inlinable
  func handleCancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer { phase = .ended }
      return phase.upstream
    }
    outbox.close()
    upstream?.cancel()
  }
}
