import CombineExCore

/// A scheduler whose work runs only when the test advances it, such as ``TestScheduler``: a
/// ``TestStore`` told about it (its `schedulers:` argument) stops waiting at once when the
/// scheduler holds work and nothing else happens, instead of waiting out its timeout.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) {}
/// print(scheduler.waitingWork.nextDueIn ?? .zero)  // Prints: 0.3 seconds
/// ```
public protocol ManuallyAdvancedScheduler: AnyObject, Sendable, CustomStringConvertible {
  /// What waits on the scheduler now.
  var waitingWork: WaitingWork { get }
}

/// What waits on a ``ManuallyAdvancedScheduler`` at one moment.
public struct WaitingWork: Sendable, Equatable {
  /// How many pieces of work wait for their time (repeating work counts once).
  public var count: Int

  /// How long after the scheduler's current time the earliest piece of work is due (zero if it
  /// is due now), or `nil` if none waits.
  public var nextDueIn: Duration?

  /// How many times the scheduler has been advanced so far: it changes when the test (or
  /// another thread) advances it, so that a waiting ``TestStore`` sees progress.
  public var advances: UInt64

  /// Describes the work waiting on a scheduler.
  public init(count: Int, nextDueIn: Duration?, advances: UInt64) {
    self.count = count
    self.nextDueIn = nextDueIn
    self.advances = advances
  }
}

extension TestScheduler: ManuallyAdvancedScheduler {
  /// The scheduler's type as a test writes it: `TestSchedulerOf<DispatchQueue>` for the
  /// schedulers of `DispatchQueue.test`, `RunLoop.test`, `OperationQueue.test` and
  /// `ImmediateScheduler.test`.
  public var description: String {
    let time = String(reflecting: SchedulerTimeType.self)
    let suffix = ".SchedulerTimeType"
    guard time.hasSuffix(suffix) else {
      return "TestScheduler<\(SchedulerTimeType.self), \(SchedulerOptions.self)>"
    }
    let scheduler = time.dropLast(suffix.count).split(separator: ".").last ?? "?"
    return "TestSchedulerOf<\(scheduler)>"
  }
}

/// The time from `start` to `end` as a `Duration` (zero if `end` is not later), for any
/// scheduler's time type: its stride can only be made from a count of nanoseconds and
/// compared, so the count is found by bisection (at most 63 comparisons).
func duration<Time: Strideable>(from start: Time, to end: Time) -> Duration
where Time.Stride: SchedulerTimeIntervalConvertible {
  let distance = start.distance(to: end)
  guard Time.Stride.nanoseconds(0) < distance else { return .zero }
  // The largest count of nanoseconds whose stride is not longer than `distance`.
  var low = 0
  var high = Int.max
  while low < high {
    let middle = low + (high - low) / 2 + 1
    if Time.Stride.nanoseconds(middle) <= distance {
      low = middle
    } else {
      high = middle - 1
    }
  }
  return .nanoseconds(low)
}
