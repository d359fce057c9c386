import Foundation

extension Timer {
  /// Returns a publisher that repeatedly emits the current date on the given interval.
  ///
  /// The publisher is a ``ConnectablePublisher``: the timer starts when you call `connect()`
  /// (or at the first subscription, with ``ConnectablePublisher/autoconnect()``), and runs on
  /// `runLoop`, which must be running.
  ///
  /// ```swift
  /// let cancellable = Timer.publish(every: 1, on: .main, in: .common)
  ///   .autoconnect()
  ///   .sink { date in print("tick at \(date)") }
  /// ```
  ///
  /// For deterministic tests, prefer CombineEx's timer on any scheduler
  /// (`scheduler.ticker(every:)`) on a `TestScheduler`.
  ///
  /// - Parameters:
  ///   - interval: The time interval on which to publish events. For example, a value of `0.5`
  ///     publishes an event approximately every half-second.
  ///   - tolerance: Ignored, as in Combine: the publisher's ``TimerPublisher/tolerance`` is
  ///     `nil` whatever is passed here (to set one, create the publisher with
  ///     ``TimerPublisher/init(interval:tolerance:runLoop:mode:options:)``).
  ///   - runLoop: The run loop on which the timer runs.
  ///   - mode: The run loop mode in which to run the timer.
  ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
  /// - Returns: A publisher that repeatedly emits the current date on the given interval.
  public static func publish(
    every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop,
    in mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil
  ) -> Timer.TimerPublisher {
    // Combine drops `tolerance` here (its publisher reports `nil`); so does the core, so that
    // code written against Combine sees the same timer.
    TimerPublisher(interval: interval, runLoop: runLoop, mode: mode, options: options)
  }

  /// A publisher that repeatedly emits the current date on a given interval.
  ///
  /// Each `connect()` schedules a Foundation `Timer` on the run loop, in the mode; cancelling
  /// the returned cancellable invalidates it. Every fire sends `Date()` to each subscriber with
  /// outstanding demand (a subscriber without demand misses that tick). The publisher never
  /// completes.
  public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
    // @unchecked Sendable: the stored properties are constants, and `subject` is thread-safe.
    /// The kind of values published by this publisher: the dates of the ticks.
    public typealias Output = Date

    /// The kind of errors this publisher might publish: it never fails.
    public typealias Failure = Never

    /// The interval between ticks, in seconds.
    public let interval: TimeInterval

    /// The allowed timing variance (`nil`: any).
    public let tolerance: TimeInterval?

    /// The run loop on which the timer runs.
    public let runLoop: RunLoop

    /// The run loop mode in which the timer runs.
    public let mode: RunLoop.Mode

    /// Scheduler options passed to the timer.
    public let options: RunLoop.SchedulerOptions?

    private let subject = PassthroughSubject<Date, Never>()

    /// Creates a publisher that repeatedly emits the current date on the given interval.
    ///
    /// - Parameters:
    ///   - interval: The interval on which to publish events.
    ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`,
    ///     which allows any variance.
    ///   - runLoop: The run loop on which the timer runs.
    ///   - mode: The run loop mode in which to run the timer.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    public init(
      interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop,
      mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil
    ) {
      self.interval = interval
      self.tolerance = tolerance
      self.runLoop = runLoop
      self.mode = mode
      self.options = options
    }

    /// Attaches the subscriber; it receives the ticks after `connect()`.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
      subject.receive(subscriber: TimerSubscription(downstream: subscriber))
    }

    /// Starts a timer on the run loop and returns the cancellable that stops it. The first tick
    /// comes one interval later, as in Combine.
    public func connect() -> any Cancellable {
      let subject = UncheckedSubject(subject: subject)
      // The first fire date is explicit: Linux's Foundation fires a timer made with
      // `Timer(timeInterval:repeats:block:)` at once, where Apple's waits one interval (and
      // Combine's first tick comes one interval after `connect()`).
      let timer = Timer(
        fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true
      ) { _ in
        subject.subject.send(Date())
      }
      if let tolerance { timer.tolerance = tolerance }
      runLoop.add(timer, forMode: mode)
      let handle = UncheckedTimer(timer: timer)
      return AnyCancellable { handle.timer.invalidate() }
    }
  }
}

/// The timer publisher's subject, handed to Foundation's `@Sendable` timer block.
private struct UncheckedSubject: @unchecked Sendable {
  // @unchecked Sendable: `PassthroughSubject` is thread-safe.
  let subject: PassthroughSubject<Date, Never>
}

/// A Foundation timer, invalidated from whichever thread cancels the connection.
private struct UncheckedTimer: @unchecked Sendable {
  // @unchecked Sendable: `invalidate()` may be called from any thread.
  let timer: Timer
}
