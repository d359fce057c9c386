import CombineExCore
import Foundation

/// A virtual-time scheduler that records every call an operator makes on it, in order, for
/// the tests that pin Combine's exact scheduling calls (`now`, `minimumTolerance` and the three
/// `schedule` forms). Times are nanoseconds from the scheduler's start; options are strings.
///
/// Scheduled actions run when the test calls ``advance(to:)``, in the order of their dates
/// (then of their scheduling); a repeating action runs again every interval until cancelled.
final class CallRecordingScheduler: Scheduler, @unchecked Sendable {
  // @unchecked Sendable: used from the test's thread only.
  typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
  typealias SchedulerOptions = String

  /// One call made on the scheduler.
  enum Call: Equatable, CustomStringConvertible {
    case now
    case minimumTolerance
    case schedule(options: String?)
    case scheduleAfter(Int, tolerance: Int, options: String?)
    case scheduleRepeating(Int, interval: Int, tolerance: Int, options: String?)

    var description: String {
      switch self {
      case .now: "now"
      case .minimumTolerance: "minimumTolerance"
      case .schedule(let options): "schedule(\(options ?? "nil"))"
      case .scheduleAfter(let date, let tolerance, let options):
        "scheduleAfter(\(date), tolerance: \(tolerance), \(options ?? "nil"))"
      case .scheduleRepeating(let date, let interval, let tolerance, let options):
        "scheduleRepeating(\(date), interval: \(interval), tolerance: \(tolerance), "
          + "\(options ?? "nil"))"
      }
    }
  }

  /// The tolerance `minimumTolerance` returns, in nanoseconds.
  static let tolerance = 7

  /// Every call made so far, oldest first.
  private(set) var calls: [Call] = []

  private static let origin: UInt64 = 1_000_000_000
  private var time = 0
  private var sequence = 0
  private var pending: [(due: Int, order: Int, action: () -> Void)] = []

  var now: SchedulerTimeType {
    calls.append(.now)
    return Self.date(time)
  }

  var minimumTolerance: SchedulerTimeType.Stride {
    calls.append(.minimumTolerance)
    return .nanoseconds(Self.tolerance)
  }

  func schedule(options: String?, _ action: @escaping () -> Void) {
    calls.append(.schedule(options: options))
    enqueue(at: time, action)
  }

  func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: String?,
    _ action: @escaping () -> Void
  ) {
    calls.append(
      .scheduleAfter(Self.offset(date), tolerance: Self.nanoseconds(tolerance), options: options))
    enqueue(at: Self.offset(date), action)
  }

  func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: String?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    calls.append(
      .scheduleRepeating(
        Self.offset(date), interval: Self.nanoseconds(interval),
        tolerance: Self.nanoseconds(tolerance), options: options))
    let token = Token()
    repeatAction(at: Self.offset(date), every: Self.nanoseconds(interval), token: token, action)
    return token
  }

  /// Runs every action due at `nanoseconds` (from the start) or before, and sets the time to it.
  func advance(to nanoseconds: Int) {
    while let next = pending.indices.min(by: { earlier(pending[$0], pending[$1]) }),
      pending[next].due <= nanoseconds
    {
      let entry = pending.remove(at: next)
      time = max(time, entry.due)
      entry.action()
    }
    time = max(time, nanoseconds)
  }

  /// Forgets the calls recorded so far.
  func clearCalls() { calls = [] }

  private func enqueue(at due: Int, _ action: @escaping () -> Void) {
    sequence += 1
    pending.append((due, sequence, action))
  }

  private func repeatAction(
    at due: Int, every interval: Int, token: Token, _ action: @escaping () -> Void
  ) {
    // The token is held strongly, as a scheduler's queue holds its work until it runs.
    enqueue(at: due) { [weak self] in
      guard !token.isCancelled else { return }
      action()
      self?.repeatAction(at: due + max(interval, 1), every: interval, token: token, action)
    }
  }

  private func earlier(
    _ a: (due: Int, order: Int, action: () -> Void), _ b: (due: Int, order: Int, action: () -> Void)
  ) -> Bool {
    (a.due, a.order) < (b.due, b.order)
  }

  private static func date(_ nanoseconds: Int) -> SchedulerTimeType {
    SchedulerTimeType(DispatchTime(uptimeNanoseconds: origin + UInt64(nanoseconds)))
  }

  private static func offset(_ date: SchedulerTimeType) -> Int {
    Int(date.dispatchTime.uptimeNanoseconds) - Int(origin)
  }

  private static func nanoseconds(_ stride: SchedulerTimeType.Stride) -> Int {
    Int(stride.magnitude)
  }

  /// The cancellable of a repeating action.
  private final class Token: Cancellable {
    var isCancelled = false
    func cancel() { isCancelled = true }
  }
}
