import CombineExCore

extension Scheduler {
  /// Returns a connectable publisher that emits the scheduler's current time every
  /// `interval`, on any scheduler.
  ///
  /// It is `Timer.publish(every:on:in:)` for every scheduler: on a `DispatchQueue` in the app,
  /// and on a `TestScheduler` in its tests, where ticks happen exactly when virtual time
  /// reaches them. (CombineEx names it `ticker` so that it never clashes with
  /// combine-schedulers' `timerPublisher` and `Publishers.Timer`, which some apps also use.)
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// var ticks = 0
  /// let cancellable = scheduler.ticker(every: .seconds(1))
  ///   .autoconnect()
  ///   .sink { _ in ticks += 1 }
  /// scheduler.advance(by: .seconds(3))
  /// print(ticks)  // Prints: 3
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; the first tick is one interval after `connect()`.
  ///   - tolerance: The allowed timing variance (the scheduler's minimum tolerance when `nil`).
  ///   - options: Scheduler options for the repeating work.
  /// - Returns: A ``Publishers/Ticker``.
  public func ticker(
    every interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil,
    options: SchedulerOptions? = nil
  ) -> Publishers.Ticker<Self> {
    Publishers.Ticker(every: interval, tolerance: tolerance, scheduler: self, options: options)
  }
}

extension Publishers {
  /// A connectable publisher that emits a scheduler's current time on a repeating interval.
  ///
  /// Foundation's `Timer.publish` only runs on a run loop; this timer runs on any
  /// ``Scheduler`` through its repeating `schedule(after:interval:tolerance:options:_:)`. It has
  /// the shape of pointfreeco/combine-schedulers' `Publishers.Timer` under a name of its own (so
  /// that both libraries can be used together): create it with
  /// ``Scheduler/ticker(every:tolerance:options:)`` or
  /// ``init(every:tolerance:scheduler:options:)``.
  ///
  /// - Each `connect()` starts a repeating schedule whose first tick is one `interval` later;
  ///   cancelling the returned cancellable stops it.
  /// - Every tick sends `scheduler.now` to each subscriber with outstanding demand (a
  ///   subscriber without demand misses that tick). The timer never completes.
  public final class Ticker<Context: Scheduler>: ConnectablePublisher, @unchecked Sendable {
    // @unchecked Sendable: the stored properties are constants, and `subject` is thread-safe.
    /// The kind of values published by this publisher: the scheduler's times of the ticks.
    public typealias Output = Context.SchedulerTimeType

    /// The kind of errors this publisher might publish: it never fails.
    public typealias Failure = Never

    /// The time between ticks.
    public let interval: Context.SchedulerTimeType.Stride

    /// The allowed timing variance (`nil`: the scheduler's minimum tolerance).
    public let tolerance: Context.SchedulerTimeType.Stride?

    /// The scheduler the timer runs on.
    public let scheduler: Context

    /// Scheduler options for the repeating work.
    public let options: Context.SchedulerOptions?

    private let subject = PassthroughSubject<Context.SchedulerTimeType, Never>()

    /// Creates a timer publisher on `scheduler`.
    public init(
      every interval: Context.SchedulerTimeType.Stride,
      tolerance: Context.SchedulerTimeType.Stride? = nil, scheduler: Context,
      options: Context.SchedulerOptions? = nil
    ) {
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber; it receives the ticks after `connect()`.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Context.SchedulerTimeType, S.Failure == Never {
      subject.receive(subscriber: subscriber)
    }

    /// Starts the repeating schedule and returns the cancellable that stops it.
    public func connect() -> any Cancellable {
      let scheduler = self.scheduler
      let subject = self.subject
      return scheduler.schedule(
        after: scheduler.now.advanced(by: interval), interval: interval,
        tolerance: tolerance ?? scheduler.minimumTolerance, options: options
      ) {
        subject.send(scheduler.now)
      }
    }
  }
}
