import Dispatch
import Foundation

extension OperationQueue: Scheduler {
  /// The scheduler time type used by the operation queue: a `Date`.
  ///
  /// ```swift
  /// let queue = OperationQueue()
  /// let later = queue.now.advanced(by: .milliseconds(500))
  /// print(queue.now < later)  // Prints: true
  /// ```
  public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
    /// The date represented by this type.
    public var date: Date

    /// Initializes an operation queue scheduler time with the given date.
    public init(_ date: Date) {
      self.date = date
    }

    /// Returns the distance to another operation queue scheduler time.
    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.date.timeIntervalSince(date))
    }

    /// Returns an operation queue scheduler time calculated by advancing this instance's time
    /// by the given interval.
    public func advanced(by n: Stride) -> SchedulerTimeType {
      SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
    }

    /// The interval by which operation queue times advance: a number of seconds.
    ///
    /// Integer and floating-point literals are seconds: `let half: Stride = 0.5`.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
      ExpressibleByFloatLiteral, Hashable, Codable, Sendable
    {
      /// The type used when evaluating floating-point literals.
      public typealias FloatLiteralType = TimeInterval

      /// The type used when evaluating integer literals.
      public typealias IntegerLiteralType = TimeInterval

      /// A type that can represent the absolute value of any possible value of the conforming
      /// type.
      public typealias Magnitude = TimeInterval

      /// The value of this time interval in seconds.
      public var magnitude: TimeInterval

      /// The value of this time interval in seconds.
      public var timeInterval: TimeInterval { magnitude }

      /// Creates an operation queue time interval from an integer literal, in seconds.
      public init(integerLiteral value: TimeInterval) {
        magnitude = value
      }

      /// Creates an operation queue time interval from a floating-point literal, in seconds.
      public init(floatLiteral value: TimeInterval) {
        magnitude = value
      }

      /// Creates an operation queue time interval from a number of seconds.
      public init(_ timeInterval: TimeInterval) {
        magnitude = timeInterval
      }

      /// Creates an operation queue time interval from a binary integer number of seconds.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        magnitude = value
      }

      /// Returns a Boolean value indicating whether the first interval is shorter.
      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

      /// Multiplies two intervals.
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude * rhs.magnitude)
      }

      /// Adds two intervals.
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude + rhs.magnitude)
      }

      /// Subtracts one interval from another.
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude - rhs.magnitude)
      }

      /// Multiplies an interval by another, in place.
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      /// Adds an interval to another, in place.
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

      /// Subtracts an interval from another, in place.
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

      /// An interval of the given number of seconds.
      public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }

      /// An interval of the given number of seconds.
      public static func seconds(_ s: Double) -> Stride { Stride(s) }

      /// An interval of the given number of milliseconds.
      public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1e3) }

      /// An interval of the given number of microseconds.
      public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1e6) }

      /// An interval of the given number of nanoseconds.
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1e9) }
    }
  }

  /// Options that affect the operation of the operation queue scheduler: there are none.
  public struct SchedulerOptions: Sendable {}

  /// This scheduler's definition of the current moment in time: `Date()`.
  public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

  /// The minimum tolerance allowed by the scheduler: zero.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// Adds the action to this queue as an operation.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    // The closure as it is, with no closure around it (one allocation less per action).
    addOperation(UncheckedAction.sendable(action))
  }

  /// Adds the action to this queue as an operation at `date` (a dispatch timer waits for the
  /// date; the operation then runs under this queue's rules, so it may start later).
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    let action = UncheckedAction(action)
    let queue = UncheckedOperationQueue(self)
    OperationQueueTimers.handOff.asyncAfter(deadline: dispatchTime(for: date)) {
      queue.queue.addOperation { action.run() }
    }
  }

  /// Adds the action to this queue as an operation at `date`, then every `interval`;
  /// cancelling the returned cancellable stops the repetitions, including an operation added
  /// but not yet started.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let repetition = OperationQueueRepetition(queue: self, action: action)
    let timer = DispatchSource.makeTimerSource(queue: .global())
    timer.setEventHandler { repetition.fire() }
    timer.schedule(
      deadline: dispatchTime(for: date),
      repeating: DispatchTimeInterval.nanoseconds(Int(max(interval.timeInterval, 0) * 1e9)),
      leeway: .nanoseconds(Int(max(tolerance.timeInterval, 0) * 1e9)))
    timer.resume()
    repetition.timer = timer
    return repetition
  }

  /// The dispatch time at which `date` (wall-clock) falls, measured from now.
  private func dispatchTime(for date: SchedulerTimeType) -> DispatchTime {
    let seconds = date.date.timeIntervalSinceNow
    guard seconds > 0 else { return .now() }
    return .now() + .nanoseconds(Int(min(seconds, Double(Int.max) / 1e9) * 1e9))
  }
}

/// An operation queue handed to a dispatch callback.
private struct UncheckedOperationQueue: @unchecked Sendable {
  // @unchecked Sendable: `OperationQueue` is thread-safe; Foundation on Linux does not mark it.
  let queue: OperationQueue

  init(_ queue: OperationQueue) {
    self.queue = queue
  }
}

/// The repeating work of an operation queue: a dispatch timer adds one operation per tick;
/// `cancel()` stops the timer and makes operations already added do nothing.
private final class OperationQueueRepetition: Cancellable, @unchecked Sendable {
  // @unchecked Sendable: `cancelled`, `queue`, `action` and `timer` are guarded by `lock`; the
  // action is only run by operations on `queue`, as the caller of `schedule` asked.
  private let lock = Lock()
  private var cancelled = false
  private var queue: OperationQueue?
  private var action: (() -> Void)?
  private var storedTimer: (any DispatchSourceTimer)?

  init(queue: OperationQueue, action: @escaping () -> Void) {
    self.queue = queue
    self.action = action
  }

  var timer: (any DispatchSourceTimer)? {
    get { lock.withLock { storedTimer } }
    set {
      let cancelNow = lock.withLock { () -> Bool in
        storedTimer = newValue
        return cancelled
      }
      if cancelNow { newValue?.cancel() }
    }
  }

  /// One tick: adds an operation that runs the action unless cancelled by then.
  func fire() {
    guard let queue = lock.withLock({ cancelled ? nil : queue }) else { return }
    queue.addOperation { [self] in
      guard let action = lock.withLock({ cancelled ? nil : action }) else { return }
      action()
    }
  }

  func cancel() {
    let timer = lock.withLock { () -> (any DispatchSourceTimer)? in
      cancelled = true
      queue = nil
      action = nil
      defer { storedTimer = nil }
      return storedTimer
    }
    timer?.cancel()
  }
}

/// Where delayed operations wait for their date.
private enum OperationQueueTimers {
  /// A serial queue, so that actions due one after the other are added to their operation
  /// queue in due order even when the timers fire late and together (on the concurrent global
  /// queue, two hand-offs could run on two threads and add their operations in either order).
  static let handOff = DispatchQueue(label: "CombineEx.OperationQueue.schedule(after:)")
}
