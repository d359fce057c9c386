/// A protocol that provides a scheduler with an expression for relative time.
///
/// Every ``Scheduler``'s `SchedulerTimeType.Stride` conforms, so that operators can be written
/// against any scheduler with the same spelling of durations:
///
/// ```swift
/// let delayed = Just(1).delay(for: .milliseconds(250), scheduler: DispatchQueue.main)
/// let debounced = Just(2).debounce(for: .seconds(0.5), scheduler: RunLoop.main)
/// ```
public protocol SchedulerTimeIntervalConvertible {
  /// Converts the specified number of seconds into an instance of this scheduler time type.
  static func seconds(_ s: Int) -> Self

  /// Converts the specified number of seconds, as a floating-point value, into an instance of
  /// this scheduler time type.
  static func seconds(_ s: Double) -> Self

  /// Converts the specified number of milliseconds into an instance of this scheduler time
  /// type.
  static func milliseconds(_ ms: Int) -> Self

  /// Converts the specified number of microseconds into an instance of this scheduler time
  /// type.
  static func microseconds(_ us: Int) -> Self

  /// Converts the specified number of nanoseconds into an instance of this scheduler time
  /// type.
  static func nanoseconds(_ ns: Int) -> Self
}
