extension Publisher {
  /// Measures and emits the time interval between events received from an upstream
  /// publisher.
  ///
  /// The first value is measured from the moment the subscription started; each later value
  /// from the previous value. Values are emitted synchronously, on the upstream's thread;
  /// demand, completion and cancellation pass straight through.
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
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == Context.SchedulerTimeType.Stride {
      upstream.receive(
        subscriber: MeasureIntervalSubscriber<Upstream.Output, Context, S>(
          downstream: subscriber, scheduler: scheduler))
    }
  }
}

/// The subscriber ``Publishers/MeasureInterval`` attaches upstream. The subscription passes
/// through untouched (demand and cancel go straight upstream), so the only state is the time
/// of the previous event.
///
/// A stateless link (like ``MapSubscriber``) but for that time, which only upstream events
/// touch: it needs no status, so it is not on the ``OperatorDriver``.
final class MeasureIntervalSubscriber<Input, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType.Stride {
  // @unchecked Sendable: `last` is only touched by upstream events, which are serial.
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let scheduler: Context
  private var last: Context.SchedulerTimeType?

  init(downstream: Downstream, scheduler: Context) {
    self.downstream = downstream
    self.scheduler = scheduler
  }

  var description: String { "MeasureInterval" }

  func receive(subscription: any Subscription) {
    last = scheduler.now
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let now = scheduler.now
    let interval = (last ?? now).distance(to: now)
    last = now
    return downstream.receive(interval)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}

extension MeasureIntervalSubscriber: NamedReflection {}
