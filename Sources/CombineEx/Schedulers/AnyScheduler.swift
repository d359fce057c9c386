/// A type-erased scheduler: any scheduler with the same time and options types.
///
/// Code that stores a scheduler in a non-generic type takes an `AnyScheduler`, so the app can
/// pass `DispatchQueue.main` and its tests a `TestScheduler` (CombineExTesting's
/// `DispatchQueue.test`), both erased to ``AnySchedulerOf``:
///
/// ```swift
/// final class SearchModel {
///   let scheduler: AnySchedulerOf<DispatchQueue>
///   init(scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()) {
///     self.scheduler = scheduler
///   }
/// }
/// let model = SearchModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
/// ```
///
/// Every call is forwarded to the wrapped scheduler, so an erased `TestScheduler` still runs
/// work only when the test advances it (advance the original, not the eraser). The shape
/// follows pointfreeco/combine-schedulers' `AnyScheduler`.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  private let minimumToleranceProvider: () -> SchedulerTimeType.Stride
  private let nowProvider: () -> SchedulerTimeType
  private let scheduleNow: (SchedulerOptions?, @escaping () -> Void) -> Void
  private let scheduleAfter:
    (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
  private let scheduleRepeating:
    (
      SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
      @escaping () -> Void
    ) -> any Cancellable

  /// Wraps `scheduler`.
  public init<S: Scheduler>(_ scheduler: S)
  where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
    minimumToleranceProvider = { scheduler.minimumTolerance }
    nowProvider = { scheduler.now }
    scheduleNow = { options, action in scheduler.schedule(options: options, action) }
    scheduleAfter = { date, tolerance, options, action in
      scheduler.schedule(after: date, tolerance: tolerance, options: options, action)
    }
    scheduleRepeating = { date, interval, tolerance, options, action in
      scheduler.schedule(
        after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
  }

  /// Builds a scheduler from closures, one per requirement of `Scheduler`.
  public init(
    minimumTolerance: @escaping () -> SchedulerTimeType.Stride,
    now: @escaping () -> SchedulerTimeType,
    scheduleImmediately: @escaping (SchedulerOptions?, @escaping () -> Void) -> Void,
    delayed:
      @escaping (
        SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void
      ) -> Void,
    interval:
      @escaping (
        SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
        @escaping () -> Void
      ) -> any Cancellable
  ) {
    minimumToleranceProvider = minimumTolerance
    nowProvider = now
    scheduleNow = scheduleImmediately
    scheduleAfter = delayed
    scheduleRepeating = interval
  }

  /// The wrapped scheduler's minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceProvider() }

  /// The wrapped scheduler's current time.
  public var now: SchedulerTimeType { nowProvider() }

  /// Schedules `action` on the wrapped scheduler, as soon as possible.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    scheduleNow(options, action)
  }

  /// Schedules `action` on the wrapped scheduler at `date`.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    scheduleAfter(date, tolerance, options, action)
  }

  /// Schedules repeating `action` on the wrapped scheduler; cancel the result to stop it.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    scheduleRepeating(date, interval, tolerance, options, action)
  }
}

/// The ``AnyScheduler`` with the time and options types of `Scheduler`.
///
/// ```swift
/// let scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
/// ```
public typealias AnySchedulerOf<Scheduler: CombineExCore.Scheduler> = AnyScheduler<
  Scheduler.SchedulerTimeType, Scheduler.SchedulerOptions
>

extension Scheduler {
  /// Wraps this scheduler in an ``AnyScheduler``.
  ///
  /// ```swift
  /// let erased: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
  /// ```
  public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
    AnyScheduler(self)
  }
}
