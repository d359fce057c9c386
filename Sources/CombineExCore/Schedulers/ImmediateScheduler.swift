/// A scheduler for performing synchronous actions.
///
/// You can only use this scheduler for immediate actions. If you attempt to schedule actions
/// after a specific date, this scheduler ignores the date and performs them immediately, on the
/// calling thread, before `schedule` returns. Repeating work runs once.
///
/// ```swift
/// var log: [String] = []
/// ImmediateScheduler.shared.schedule { log.append("now") }
/// log.append("after")
/// print(log)  // Prints: ["now", "after"]
/// ```
///
/// Its time type does not move: every instant is equal to every other, and every stride is
/// zero.
public struct ImmediateScheduler: Scheduler, Sendable {
  /// The time type used by the immediate scheduler.
  public struct SchedulerTimeType: Strideable, Sendable {
    /// Creates the immediate scheduler's only instant.
    init() {}

    /// Returns the distance to another immediate scheduler time; this distance is always `0`
    /// in the context of an immediate scheduler.
    public func distance(to other: SchedulerTimeType) -> Stride { 0 }

    /// Advances the time by the specified amount; this is meaningless in the context of an
    /// immediate scheduler, and returns the same time.
    public func advanced(by n: Stride) -> SchedulerTimeType { self }

    /// The increment by which the immediate scheduler counts time.
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
      SchedulerTimeIntervalConvertible, Sendable
    {
      /// The type used when evaluating floating-point literals.
      public typealias FloatLiteralType = Double

      /// The type used when evaluating integer literals.
      public typealias IntegerLiteralType = Int

      /// The type used for expressing the stride's magnitude.
      public typealias Magnitude = Int

      /// The value of this time interval in seconds.
      public var magnitude: Int

      /// Creates an immediate scheduler time interval from the given time interval.
      public init(_ value: Int) {
        magnitude = value
      }

      /// Creates an immediate scheduler time interval from an integer seconds value.
      public init(integerLiteral value: Int) {
        magnitude = value
      }

      /// Creates an immediate scheduler time interval from a floating-point seconds value.
      public init(floatLiteral value: Double) {
        magnitude = Int(value.rounded(.towardZero))
      }

      /// Creates an immediate scheduler time interval from a binary integer type.
      ///
      /// If `exactly` can't convert to an `Int`, the resulting time interval is `nil`.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        magnitude = value
      }

      /// Returns a Boolean value indicating whether the first interval is shorter.
      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

      /// Multiplies two intervals.
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude &* rhs.magnitude)
      }

      /// Adds two intervals.
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude &+ rhs.magnitude)
      }

      /// Subtracts one interval from another.
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude &- rhs.magnitude)
      }

      /// Subtracts an interval from another, in place.
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

      /// Multiplies an interval by another, in place.
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      /// Adds an interval to another, in place.
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

      /// Converts seconds to an immediate scheduler interval: always zero.
      public static func seconds(_ s: Int) -> Stride { 0 }

      /// Converts seconds to an immediate scheduler interval: always zero.
      public static func seconds(_ s: Double) -> Stride { 0 }

      /// Converts milliseconds to an immediate scheduler interval: always zero.
      public static func milliseconds(_ ms: Int) -> Stride { 0 }

      /// Converts microseconds to an immediate scheduler interval: always zero.
      public static func microseconds(_ us: Int) -> Stride { 0 }

      /// Converts nanoseconds to an immediate scheduler interval: always zero.
      public static func nanoseconds(_ ns: Int) -> Stride { 0 }
    }
  }

  /// A type that defines options accepted by the immediate scheduler: there are none.
  public typealias SchedulerOptions = Never

  /// The shared instance of the immediate scheduler.
  ///
  /// You cannot create instances of the immediate scheduler yourself. Use only the shared
  /// instance.
  public static let shared = ImmediateScheduler()

  private init() {}

  /// The immediate scheduler's definition of the current moment in time.
  public var now: SchedulerTimeType { SchedulerTimeType() }

  /// The minimum tolerance allowed by the immediate scheduler: zero.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// Performs the action now, before returning.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    action()
  }

  /// Performs the action now, before returning: the immediate scheduler ignores `date`.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Performs the action once, now, before returning: the immediate scheduler ignores `date`
  /// and `interval`. The returned cancellable does nothing.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    action()
    return Subscriptions.empty
  }
}
