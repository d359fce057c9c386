extension Publisher {
  /// Measures and emits the time interval between events received from an upstream
  /// publisher.
  ///
  /// The first value is measured from the moment the subscription started; each later value
  /// from the previous value (the scheduler's `now` is read once at the subscription and once
  /// per value, as in Combine). Values are emitted synchronously, on the upstream's thread.
  /// As in Combine, the downstream receives the operator's own subscription: the demand it
  /// returns from a value is requested from the upstream with `request(_:)` (so `receive(_:)`
  /// returns `.none` to the upstream); its requests and its cancel pass straight through.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let subject = PassthroughSubject<Void, Never>()
  /// let cancellable = subject
  ///   .measureInterval(using: scheduler)
  ///   .sink { print($0 == .seconds(2)) }
  /// scheduler.advance(by: .seconds(2))
  /// subject.send()
  /// // Prints: true
  /// ```
  ///
  /// - Parameters:
  ///   - scheduler: A scheduler to use for tracking the timing of events.
  ///   - options: Options that customize the delivery of elements (unused, as in Combine).
  /// - Returns: A publisher that emits elements representing the time interval between the
  ///   elements it receives.
  public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.MeasureInterval<Self, S>
  {
    Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
  }
}

extension Publishers {
  /// A publisher that measures and emits the time interval between events received from an
  /// upstream publisher.
  public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: the scheduler's strides.
    public typealias Output = Context.SchedulerTimeType.Stride

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The scheduler used for tracking the timing of events.
    public let scheduler: Context

    /// Creates a publisher that measures the intervals between the events of `upstream`.
    public init(upstream: Upstream, scheduler: Context) {
      self.upstream = upstream
      self.scheduler = scheduler
    }

    /// Attaches the subscriber through a measuring subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == Context.SchedulerTimeType.Stride {
      upstream.subscribe(
        MeasureIntervalSubscriber<Upstream.Output, Context, S>(
          downstream: subscriber, scheduler: scheduler))
    }
  }
}

/// The subscriber ``Publishers/MeasureInterval`` attaches upstream, and the subscription its
/// downstream receives (as in Combine, whose subscription is named "MeasureInterval").
///
/// The time of the previous event is read from the scheduler's `now` when the upstream's
/// subscription arrives and at each value (one call each, as Combine makes). The demand the
/// downstream returns from a value is requested from the upstream (`receive(_:)` returns
/// `.none`), and requests pass through as they are. Nothing reaches the downstream before the
/// upstream's subscription, after the completion or after a cancel.
///
/// Not on the ``OperatorDriver``: its only state besides the status is a time that the
/// subscription's arrival sets, which a logic's hooks cannot do.
///
/// `@usableFromInline` so that it is specialized at the operator's `receive(subscriber:)`; the
/// protocol methods only call ``entries``, closures made in the inlined init (see
/// ``SubscriberEntries``).
@usableFromInline
final class MeasureIntervalSubscriber<Input, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType.Stride {
  // @unchecked Sendable: `status` is guarded by `lock`; `last` is only touched by upstream
  // events, which are serial; `downstream` is released under `lock` and called outside it.
  @usableFromInline
  typealias Failure = Downstream.Failure

  /// The specialized entry points of the events (see the type's header). They capture
  /// nothing (no allocation).
  @usableFromInline
  let entries: SubscriberEntries<MeasureIntervalSubscriber, Input, Failure>

  @usableFromInline
  let lock = Lock()
  @usableFromInline
  var status = OperatorStatus.awaitingSubscription
  /// Released when the operator ends (completion or cancel).
  @usableFromInline
  var downstream: Downstream?
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  var last: Context.SchedulerTimeType?

  @inlinable
  init(downstream: Downstream, scheduler: Context) {
    self.downstream = downstream
    self.scheduler = scheduler
    entries = SubscriberEntries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
  }

  @usableFromInline
  var description: String { "MeasureInterval" }

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
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    last = scheduler.now
    lock.withLock { downstream }?.receive(subscription: self)
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    let live = lock.withLock { () -> (any Subscription, Downstream)? in
      guard let upstream = status.upstream, let downstream else { return nil }
      return (upstream, downstream)
    }
    guard let (upstream, downstream) = live else { return .none }
    let now = scheduler.now
    let interval = (last ?? now).distance(to: now)
    last = now
    let demand = downstream.receive(interval)
    if demand > .none { upstream.request(demand) }
    return .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminated
      defer { self.downstream = nil }
      return self.downstream
    }
    downstream?.receive(completion: completion)
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    lock.withLock { status.upstream }?.request(demand)
  }

  @inlinable
  func handleCancel() {
    let (upstream, released) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      defer { downstream = nil }
      return (status.terminate(), downstream)
    }
    upstream?.cancel()
    // The downstream is released here, after the lock.
    _ = released
  }
}

extension MeasureIntervalSubscriber: NamedReflection {}
