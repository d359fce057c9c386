import Dispatch
import Foundation

/// The operation an `OperationQueue` scheduler adds for work at a date: added to the queue at
/// once, it becomes ready when the date comes, and runs its action at most once.
///
/// This is what Combine does (OpenCombine's test suite checks it with a queue that records its
/// calls): `schedule(after:)` makes one `addOperation` call, at once, with an operation that is
/// not a `BlockOperation`, is not ready before its date, and can be cancelled like any
/// operation. So the queue's own tools see scheduled work as soon as it is scheduled:
/// `waitUntilAllOperationsAreFinished()` waits for it, `cancelAllOperations()` cancels it.
final class DelayedOperation: Operation, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: `action` and `due` are guarded by `lock`; `repetition` is immutable
  // and thread-safe; `Operation`'s own state is thread-safe.
  private let lock = Lock()
  private var action: (() -> Void)?
  private var due = false
  private let repetition: OperationQueueRepetition?

  /// An operation that runs `action` once it is due; for a repeating schedule, `repetition`
  /// adds the next operation each time.
  init(action: @escaping () -> Void, repetition: OperationQueueRepetition?) {
    self.action = action
    self.repetition = repetition
    super.init()
  }

  /// Ready once due (and once its dependencies, if any, finished); a cancelled operation is
  /// ready at once, so that the queue lets go of it without waiting for its date.
  override var isReady: Bool {
    guard super.isReady else { return false }
    return isCancelled || lock.withLock { due }
  }

  /// Makes the operation ready at `deadline`.
  func becomeReady(at deadline: DispatchTime) {
    OperationQueueTimers.handOff.asyncAfter(deadline: deadline) { [weak self] in
      self?.becomeDue()
    }
  }

  private func becomeDue() {
    willChangeValue(forKey: "isReady")
    lock.withLock { due = true }
    // Tells the queue (key-value observing), which then starts the operation.
    didChangeValue(forKey: "isReady")
  }

  /// Cancels the operation: it will not run its action, which it releases now; the queue
  /// removes it at once.
  override func cancel() {
    super.cancel()
    let action = lock.withLock { self.action.take() }
    // Released after the lock: what the action captured may run code in its deinit.
    withExtendedLifetime(action) {}
    // The readiness changed (`isReady` is true once cancelled): tell the queue.
    willChangeValue(forKey: "isReady")
    didChangeValue(forKey: "isReady")
  }

  /// Runs the action, once: a second call (or a call after `cancel()`) does nothing.
  override func main() {
    guard let action = lock.withLock({ self.action.take() }) else { return }
    // The next repetition is added before the action runs, so that whoever the action wakes
    // finds it in the queue; its interval starts when the action returns.
    let next = repetition?.addNext(action)
    action()
    if let next, let repetition {
      next.becomeReady(at: .now() + repetition.interval)
    }
  }
}

/// The state of a repeating `OperationQueue` schedule: the operation waiting for the next tick.
/// Cancelling it cancels that operation, and no operation is added after that.
final class OperationQueueRepetition: Cancellable, @unchecked Sendable {
  // @unchecked Sendable: `queue` and `current` are guarded by `lock`; `interval` is immutable.
  private let lock = Lock()
  private var queue: OperationQueue?
  private var current: DelayedOperation?

  /// The time between an action's end and the next action's start.
  let interval: DispatchTimeInterval

  /// Adds the first operation to `queue`, ready at `deadline`.
  init(
    queue: OperationQueue, deadline: DispatchTime, interval: DispatchTimeInterval,
    action: @escaping () -> Void
  ) {
    self.queue = queue
    self.interval = interval
    let first = DelayedOperation(action: action, repetition: self)
    current = first
    queue.addOperation(first)
    first.becomeReady(at: deadline)
  }

  /// Adds the operation of the next tick (not ready yet), unless cancelled.
  func addNext(_ action: @escaping () -> Void) -> DelayedOperation? {
    let next = DelayedOperation(action: action, repetition: self)
    guard
      let queue = lock.withLock({ () -> OperationQueue? in
        guard let queue else { return nil }
        current = next
        return queue
      })
    else { return nil }
    // Outside the lock: the queue may be a subclass running code of its own. A cancel that
    // comes in between cancels `next`, which then leaves the queue as soon as it is added.
    queue.addOperation(next)
    return next
  }

  func cancel() {
    let (queue, operation) = lock.withLock {
      defer {
        self.queue = nil
        current = nil
      }
      return (self.queue, current)
    }
    operation?.cancel()
    withExtendedLifetime(queue) {}
  }
}

/// `seconds` as a dispatch interval: zero if negative (or NaN), `.never` if `Int` nanoseconds
/// cannot hold it.
func dispatchInterval(seconds: TimeInterval) -> DispatchTimeInterval {
  let nanoseconds = seconds * 1e9
  guard nanoseconds > 0 else { return .nanoseconds(0) }
  // Double(Int.max) is 2^63: anything below it converts to Int.
  guard nanoseconds < Double(Int.max) else { return .never }
  return .nanoseconds(Int(nanoseconds))
}

/// Where delayed operations wait for their date.
enum OperationQueueTimers {
  /// A serial queue, so that operations due one after the other become ready in due order even
  /// when the timers fire late and together (on the concurrent global queue, two could become
  /// ready on two threads in either order).
  static let handOff = DispatchQueue(label: "CombineEx.OperationQueue.schedule(after:)")
}
