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

  /// The main queue (`DispatchQueue.main` makes a new wrapper object on each call on Linux).
  private static let mainQueue = DispatchQueue.main

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
  /// // Not run by the doc tests: it needs the main queue.
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
    // The count first: while hops wait, the queue check (a queue-specific lookup off the main
    // thread) is not needed.
    if Self.pendingHops.load(ordering: .acquiring) == 0, Self.isOnMainQueue {
      action()
      return
    }
    Self.pendingHops.add(1, ordering: .acquiringAndReleasing)
    guard let options else {
      // The usual hop (`receive(on: UIScheduler.shared)`): straight to `async`, as a block that
      // holds the action itself (no closure context to allocate, none wrapped around it by
      // `DispatchQueue.schedule`). A block value, not a closure literal written in the call:
      // that one would be inferred `@MainActor` and check the executor each time it runs.
      let hop = UncheckedHop(action)
      let work: @Sendable @convention(block) () -> Void = {
        Self.pendingHops.subtract(1, ordering: .acquiringAndReleasing)
        hop.run()
      }
      Self.mainQueue.async(execute: work)
      return
    }
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

/// The work of a hop to the main queue, carried across `async`'s `@Sendable` boundary.
private struct UncheckedHop: @unchecked Sendable {
  // @unchecked Sendable: the closure runs on the main queue, where the caller of `schedule`
  // asked for it to run; the box never runs it anywhere else.
  let run: () -> Void

  init(_ run: @escaping () -> Void) {
    self.run = run
  }
}
