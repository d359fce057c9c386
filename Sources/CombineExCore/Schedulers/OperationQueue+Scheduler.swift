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

  /// Adds the action to this queue as a `BlockOperation` (one `addOperation(_:)` call, as in
  /// Combine).
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    // The closure as it is, with no closure around it (one allocation less per action).
    addOperation(BlockOperation(block: UncheckedAction.sendable(action)))
  }

  /// Adds the action to this queue at once, as an operation that becomes ready at `date` (one
  /// `addOperation(_:)` call, as in Combine): the queue counts it, waits for it in
  /// `waitUntilAllOperationsAreFinished()` and cancels it in `cancelAllOperations()`. Once
  /// ready, it runs under this queue's rules, so it may start later.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    let operation = DelayedOperation(action: action, repetition: nil)
    addOperation(operation)
    operation.becomeReady(at: dispatchTime(for: date))
  }

  /// Adds an operation that becomes ready at `date`, and, each time one has run its action, the
  /// next one, ready `interval` later; cancelling (or releasing) the returned `AnyCancellable`
  /// cancels the operation waiting in the queue and stops the repetitions.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    AnyCancellable(
      OperationQueueRepetition(
        queue: self, deadline: dispatchTime(for: date),
        interval: dispatchInterval(seconds: interval.timeInterval), action: action))
  }

  /// The dispatch time at which `date` (wall-clock) falls, measured from now.
  private func dispatchTime(for date: SchedulerTimeType) -> DispatchTime {
    .now() + dispatchInterval(seconds: date.date.timeIntervalSinceNow)
  }
}
