import CombineExCore
import Dispatch
import Foundation

extension DispatchQueue {
  /// A new test scheduler with `DispatchQueue`'s time and options, for code that takes a
  /// `some Scheduler<DispatchQueue.SchedulerTimeType>` or is generic over its scheduler.
  ///
  /// Its clock starts at uptime one nanosecond (zero means "now" to Dispatch).
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// var fired = false
  /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { fired = true }
  /// scheduler.advance(by: .seconds(1))
  /// #expect(fired)
  /// ```
  public static var test: TestSchedulerOf<DispatchQueue> {
    TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension RunLoop {
  /// A new test scheduler with `RunLoop`'s time and options.
  ///
  /// Its clock starts at `Date(timeIntervalSinceReferenceDate: 0)` (2001-01-01), where
  /// `Date` stores zero: sums and distances of strides are then exact (from 1970, a
  /// millisecond would come back as 0.00999999 seconds).
  public static var test: TestSchedulerOf<RunLoop> {
    TestScheduler(now: SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0)))
  }
}

extension OperationQueue {
  /// A new test scheduler with `OperationQueue`'s time and options; its clock starts at
  /// `Date(timeIntervalSinceReferenceDate: 0)`, like ``RunLoop/test``.
  public static var test: TestSchedulerOf<OperationQueue> {
    TestScheduler(now: SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0)))
  }
}

extension ImmediateScheduler {
  /// A new test scheduler with ``ImmediateScheduler``'s time and options.
  ///
  /// `ImmediateScheduler`'s time never moves, so every piece of work is due at once: nothing
  /// runs until the test advances (by any amount), and then everything scheduled runs, in the
  /// order it was scheduled. Use it to test code that takes an `ImmediateScheduler` while
  /// choosing when its work runs.
  public static var test: TestSchedulerOf<ImmediateScheduler> {
    TestScheduler(now: ImmediateScheduler.shared.now)
  }
}
