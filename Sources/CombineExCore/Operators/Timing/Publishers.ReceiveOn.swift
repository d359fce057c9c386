extension Publisher {
  /// Specifies the scheduler on which to receive elements from the publisher.
  ///
  /// Every value and the completion are delivered from work scheduled on `scheduler` (one
  /// `schedule(options:_:)` call each), in the order the upstream sent them. The subscription
  /// itself reaches the subscriber on the upstream's thread; requests and cancellation go
  /// straight to the upstream. As in Combine, the demand the subscriber returns from a value is
  /// requested from the upstream right after that value's delivery.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let cancellable = [1, 2, 3].publisher
  ///   .receive(on: scheduler)
  ///   .sink { print($0) }
  /// // Nothing yet: the values wait for the scheduler.
  /// scheduler.advance()
  /// // Prints: 1, 2, 3
  /// ```
  ///
  /// Use `receive(on:)` to move the downstream's work to a thread (for example, the main queue
  /// for UI updates); use `subscribe(on:)` to move the upstream's subscription, requests and
  /// cancellation.
  ///
  /// ## Cancellation
  /// Once `cancel()` returns, nothing more is delivered: values already scheduled are dropped
  /// when their work runs. (A delivery already in progress on the scheduler's thread, when
  /// another thread cancels, finishes.)
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler the publisher uses for element delivery.
  ///   - options: Scheduler options used to customize element delivery.
  /// - Returns: A publisher that delivers elements using the specified scheduler.
  @inlinable
  public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.ReceiveOn<Self, S>
  {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream

    /// The scheduler the publisher is to use for element delivery.
    public let scheduler: Context

    /// Scheduler options used to customize element delivery.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delivers the elements of `upstream` on `scheduler`.
    @inlinable
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber through a subscription that delivers on the scheduler.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      if Context.self == ImmediateScheduler.self, S.self is any SubscriptionReleasing.Type {
        // Delivery at once, with the same order and cancellation guarantees, without locks.
        upstream.receive(subscriber: ImmediateDelivery(downstream: subscriber))
        return
      }
      upstream.receive(
        subscriber: ScheduledDelivery<Output, Failure, Context, S>(
          downstream: subscriber, scheduler: scheduler, options: options, name: "ReceiveOn"))
    }
  }
}

extension Publishers.ReceiveOn: OperatorReportingItsSubscriber {
  /// `receive(subscriber:)`, subscribing upstream through `subscribe(_:)`.
  func receiveReportingItsSubscriber<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    if Context.self == ImmediateScheduler.self, S.self is any SubscriptionReleasing.Type {
      upstream.subscribe(ImmediateDelivery(downstream: subscriber))
      return
    }
    upstream.subscribe(
      ScheduledDelivery<Output, Failure, Context, S>(
        downstream: subscriber, scheduler: scheduler, options: options, name: "ReceiveOn"))
  }
}
