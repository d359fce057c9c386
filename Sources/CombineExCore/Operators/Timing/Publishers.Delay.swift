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
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.receive(
        subscriber: ScheduledDelivery<Output, Failure, Context, S>(
          downstream: subscriber, scheduler: scheduler, options: options,
          delay: (interval, tolerance), name: "Delay"))
    }
  }
}
