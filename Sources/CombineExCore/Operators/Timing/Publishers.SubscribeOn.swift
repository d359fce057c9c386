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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let inner = OperatorDriver(
        SubscribeOnLogic<Output, Failure, Context>(scheduler: scheduler, options: options),
        downstream: subscriber)
      let upstream = self.upstream
      scheduler.schedule(options: options) {
        upstream.subscribe(inner)
      }
    }
  }
}

/// `subscribe(on:)`: values and the completion pass at once; requests and the cancel go to the
/// upstream from work scheduled on the scheduler.
@usableFromInline
struct SubscribeOnLogic<Input, Failure: Error, Context: Scheduler>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure
  @usableFromInline let scheduler: Context
  @usableFromInline let options: Context.SchedulerOptions?

  @inlinable
  init(scheduler: Context, options: Context.SchedulerOptions?) {
    self.scheduler = scheduler
    self.options = options
  }

  @inlinable
  var name: String { "SubscribeOn" }

  /// As in Combine: a cancel before the upstream's subscription is only noted (the
  /// subscription that arrives is handed on untouched), and a completion before it is ignored.
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, Failure> {
    .emit(input)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand, from upstream: (any Subscription)?) {
    guard let upstream else { return }
    // Forwarded even if a cancel follows: on a serial scheduler it reaches the upstream before
    // that cancel, in the order the calls were made.
    scheduler.schedule(options: options) {
      upstream.request(demand)
    }
  }

  @inlinable
  func cancel(_ upstream: (any Subscription)?) {
    guard let upstream else { return }
    scheduler.schedule(options: options) {
      upstream.cancel()
    }
  }
}
