import CombineExCore
import Dispatch
import Foundation
import Synchronization

/// A scheduler for UI work: it runs work at once when called on the main queue, and hops to
/// the main queue otherwise.
///
/// `DispatchQueue.main` and `RunLoop.main` always defer work, even when the caller already is
/// on the main thread, which costs a frame of latency (a visible flicker) for updates that were
/// already on time. `UIScheduler.shared` runs such work inline, before `schedule` returns:
///
/// ```swift
/// @MainActor func refresh(_ label: MutableProperty<String>) {
///   var shown = ""
///   let cancellable = label.receive(on: UIScheduler.shared).sink { shown = $0 }
///   label.value = "Ready"
///   assert(shown == "Ready")  // delivered inline: we are on the main queue
///   cancellable.cancel()
/// }
/// ```
///
/// ## Semantics
/// - **On the main queue**, `schedule(options:_:)` runs the work at once. The main queue is
///   recognised by a queue-specific key set on `DispatchQueue.main` (work the main queue runs
///   may run on a thread other than the main thread: on Linux, once the main thread has called
///   `dispatchMain()`), and by `Thread.isMainThread`.
/// - **Elsewhere**, it dispatches the work asynchronously to `DispatchQueue.main` (with the
///   given options).
/// - **It never reorders work**: while work it sent to the main queue is still waiting there,
///   new work queues behind it, even when called on the main queue. (It counts its pending
///   hops.) So values that a background thread and the main thread send through
///   `receive(on: UIScheduler.shared)` arrive in the order they were sent.
/// - `schedule(after:)` and repeating work always go through `DispatchQueue.main`, and `now`
///   and `minimumTolerance` are the main queue's: the time and options types are
///   `DispatchQueue`'s.
///
/// The shape follows pointfreeco/combine-schedulers' `UIScheduler`, which has the first two
/// rules but not the third.
public struct UIScheduler: Scheduler, Sendable {
  /// The main queue's time type.
  public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType

  /// The main queue's options (quality of service, flags, group); used when work hops.
  public typealias SchedulerOptions = DispatchQueue.SchedulerOptions

  /// The scheduler (it has no state of its own: every instance shares the main queue).
  public static let shared = UIScheduler()

  /// The key marking the main queue; set on `DispatchQueue.main` on first use.
  private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// How many hops to the main queue have not started yet (across all instances).
  private static let pendingHops = Atomic<Int>(0)

  private init() {
    _ = Self.mainQueueKey
  }

  /// Whether the caller runs on the main queue (or the main thread).
  static var isOnMainQueue: Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil
  }

  /// Whether the caller runs on the main queue (or the main thread): where ``schedule(options:_:)``
  /// runs work inline, unless earlier work is still waiting for the main queue.
  ///
  /// ```swift
  /// DispatchQueue.main.async {
  ///   print(UIScheduler.shared.onMainThread())  // Prints: true
  /// }
  /// DispatchQueue.global().async {
  ///   print(UIScheduler.shared.onMainThread())  // Prints: false
  /// }
  /// ```
  ///
  /// The original CombineEx checks `Thread.isMainThread` only. On Linux, once the main thread
  /// has called `dispatchMain()`, the main queue runs on another thread, so this also recognises
  /// the main queue by a queue-specific key.
  public func onMainThread() -> Bool {
    Self.isOnMainQueue
  }

  /// The main queue's current time.
  public var now: SchedulerTimeType { DispatchQueue.main.now }

  /// The main queue's minimum tolerance.
  public var minimumTolerance: SchedulerTimeType.Stride { DispatchQueue.main.minimumTolerance }

  /// Runs `action` at once if called on the main queue with no earlier hop still waiting;
  /// otherwise dispatches it to the main queue.
  ///
  /// ```swift
  /// DispatchQueue.global().async {
  ///   UIScheduler.shared.schedule {
  ///     // runs on the main queue
  ///   }
  /// }
  /// ```
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    if Self.isOnMainQueue, Self.pendingHops.load(ordering: .acquiring) == 0 {
      action()
      return
    }
    Self.pendingHops.add(1, ordering: .acquiringAndReleasing)
    DispatchQueue.main.schedule(options: options) {
      // The hop has started: work scheduled from here on (and from `action`) no longer waits
      // behind it.
      Self.pendingHops.subtract(1, ordering: .acquiringAndReleasing)
      action()
    }
  }

  /// Runs `action` on the main queue at `date` (never inline).
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    DispatchQueue.main.schedule(after: date, tolerance: tolerance, options: options, action)
  }

  /// Runs `action` on the main queue at `date`, then every `interval`, until cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    DispatchQueue.main.schedule(
      after: date, interval: interval, tolerance: tolerance, options: options, action)
  }
}
