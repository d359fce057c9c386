extension Publisher {
  /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
  ///
  /// The upstream is subscribed to from work scheduled on `scheduler`, and every `request` and
  /// the `cancel` of the subscription are forwarded to the upstream from scheduled work too, in
  /// the order they were made (on a serial scheduler). Values and the completion are not moved: they reach the
  /// subscriber on whatever thread the upstream sends them (use `receive(on:)` for that).
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let cancellable = [1, 2, 3].publisher
  ///   .subscribe(on: scheduler)
  ///   .sink { print($0) }
  /// // Nothing yet: the subscription waits for the scheduler.
  /// scheduler.advance()
  /// // Prints: 1, 2, 3
  /// ```
  ///
  /// Use it when subscribing or requesting does work you want off the calling thread (a
  /// publisher that produces its values synchronously when asked, for example).
  ///
  /// ## Cancellation
  /// `cancel()` releases the subscriber at once, so nothing more reaches it; the upstream's
  /// own cancellation runs later, on the scheduler.
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler used to send messages to upstream publishers.
  ///   - options: Options that customize the delivery of elements.
  /// - Returns: A publisher which performs upstream operations on the specified scheduler.
  public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.SubscribeOn<Self, S>
  {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that receives elements from an upstream publisher on a specific scheduler.
  public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The scheduler the publisher should use to receive elements.
    public let scheduler: Context

    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that subscribes to `upstream` on `scheduler`.
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    /// Subscribes to the upstream from work scheduled on the scheduler.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let inner = SubscribeOnSubscription<Upstream, Context, S>(
        downstream: subscriber, scheduler: scheduler, options: options)
      let upstream = self.upstream
      scheduler.schedule(options: options) {
        upstream.receive(subscriber: inner)
      }
    }
  }
}

/// The subscription of ``Publishers/SubscribeOn``: forwards values and the completion at once,
/// and requests and the cancel through the scheduler.
final class SubscribeOnSubscription<
  Upstream: Publisher, Context: Scheduler, Downstream: Subscriber
>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked Sendable: `status` and `downstream` are guarded by `lock`; the scheduler and
  // options are constants.
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var downstream: Downstream?
  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.downstream = downstream
    self.scheduler = scheduler
    self.options = options
  }

  var description: String { "SubscribeOn" }

  // MARK: Subscriber (upstream side)

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return self.downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ status.isSubscribed ? self.downstream : nil }) else {
      return .none
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminated
      defer { self.downstream = nil }
      return self.downstream
    }
    downstream?.receive(completion: completion)
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    guard let upstream else { return }
    // Forwarded even if a cancel follows: on a serial scheduler it reaches the upstream before
    // that cancel, in the order the calls were made.
    scheduler.schedule(options: options) {
      upstream.request(demand)
    }
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      status = .terminated
      downstream = nil
      return upstream
    }
    guard let upstream else { return }
    scheduler.schedule(options: options) {
      upstream.cancel()
    }
  }
}
