/// A protocol that defines when and how to execute a closure.
///
/// A scheduler is where and when work runs: `DispatchQueue`, `RunLoop` and `OperationQueue`
/// conform, as do ``ImmediateScheduler`` (runs everything at once, on the calling thread) and
/// CombineExTesting's `TestScheduler` (virtual time, for tests). Operators that deal with time
/// or threads (`receive(on:)`, `subscribe(on:)`, `delay`, `debounce`, `throttle`, `timeout`,
/// `measureInterval`, `collect(.byTime(...))`) take a scheduler as a parameter, so the same
/// pipeline runs on a real queue in the app and on virtual time in its tests.
///
/// ```swift
/// let queue = DispatchQueue(label: "worker")
/// queue.schedule { print("soon") }
/// queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { print("later") }
/// let repeating = queue.schedule(after: queue.now, interval: .seconds(1)) { print("tick") }
/// repeating.cancel()  // Stops the repeating work.
/// ```
///
/// The closures are not `@Sendable`, as in Combine: a scheduler runs them on its own
/// execution context (a queue, a run loop), and code that schedules work is responsible for
/// what that work touches.
public protocol Scheduler<SchedulerTimeType> {
  /// Describes an instant in time for this scheduler.
  associatedtype SchedulerTimeType: Strideable
  where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

  /// A type that defines options accepted by the scheduler.
  ///
  /// This type is freely definable by each `Scheduler`. Typically, operations that take a
  /// `Scheduler` parameter will also take `SchedulerOptions`.
  associatedtype SchedulerOptions

  /// This scheduler's definition of the current moment in time.
  var now: SchedulerTimeType { get }

  /// The minimum tolerance allowed by the scheduler.
  var minimumTolerance: SchedulerTimeType.Stride { get }

  /// Performs the action at the next possible opportunity.
  func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

  /// Performs the action at some time after the specified date.
  func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void)

  /// Performs the action at some time after the specified date, at the specified frequency,
  /// optionally taking into account tolerance if possible.
  ///
  /// - Returns: A cancellable that stops the repeating work.
  func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable
}

extension Scheduler {
  /// Performs the action at some time after the specified date, using the scheduler's minimum
  /// tolerance.
  ///
  /// The immediate scheduler ignores `date` and performs the action immediately.
  @inlinable
  public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
    schedule(after: date, tolerance: minimumTolerance, action)
  }

  /// Performs the action at the next possible opportunity, without options.
  @inlinable
  public func schedule(_ action: @escaping () -> Void) {
    schedule(options: nil, action)
  }

  /// Performs the action at some time after the specified date, without options.
  ///
  /// The immediate scheduler ignores `date` and performs the action immediately.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    _ action: @escaping () -> Void
  ) {
    schedule(after: date, tolerance: tolerance, options: nil, action)
  }

  /// Performs the action at some time after the specified date, at the specified frequency,
  /// taking into account tolerance if possible, without options.
  ///
  /// The immediate scheduler ignores `date` and performs the action immediately.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
  ) -> any Cancellable {
    schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
  }

  /// Performs the action at some time after the specified date, at the specified frequency,
  /// using the minimum tolerance possible for this scheduler.
  ///
  /// The immediate scheduler ignores `date` and performs the action immediately.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    schedule(after: date, interval: interval, tolerance: minimumTolerance, action)
  }
}
