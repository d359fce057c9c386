import CombineExStore
import Foundation
import Synchronization

/// What a ``TestStore`` learns from the store it drives: every action processed (with the state
/// before and after it), which of them the test sent, and the effects in flight with the action
/// that started each.
///
/// The log installs itself as the store's first middleware (``middleware``), so it sees every
/// action, including those that effects and other middlewares dispatch, and it binds an
/// ``EffectTracking`` observer around the rest of the chain, so that the middlewares report the
/// effects each action starts.
///
/// ## Sent or received
/// ``TestStore/send(_:assert:fileID:filePath:line:column:)`` dispatches inside a
/// ``SendMarker`` (a task-local value). The store processes the dispatched action first, then
/// the follow-ups it caused, all on the sending thread: so the first action the middleware sees
/// under an unclaimed marker of this log is the sent one. Every other action is *received*.
final class TestStoreLog<State>: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`. States are copied in and
  // out under it; like `Store.state`, sharing a non-`Sendable` state across threads is the
  // caller's business.

  /// An action the store processed, with the states around it.
  struct Processed {
    let action: any StoreAction
    let before: State
    let after: State
    let cause: Cause
  }

  /// An effect in flight.
  struct RunningEffect {
    let description: String
    let cause: Cause
  }

  private let lock = NSLock()
  private var received: [Processed] = []
  private var running: [UInt64: RunningEffect] = [:]
  private var nextEffectID: UInt64 = 0
  private var waiters: [UInt64: () -> Void] = [:]
  private var nextWaiterID: UInt64 = 0
  /// Counts the changes waiters wait for, so that a change between a waiter's check and its
  /// registration is not missed.
  private var changes: UInt64 = 0

  // MARK: The middleware

  /// The middleware to place first in the store.
  var middleware: Middleware<State> {
    { [self] _, getState, next in
      { [self] action in
        guard let before = getState() else { return next(action) }
        let cause = causeOf(action)
        let observer: EffectTracking.Observer = { [self] description in
          effectStarted(description, cause: cause)
        }
        EffectTracking.$observer.withValue(observer) { next(action) }
        let processed = Processed(
          action: action, before: before, after: getState() ?? before, cause: cause)
        if let marker = cause.sentBy, cause.isSent {
          lock.withLock { marker.processed = processed }
        } else {
          lock.withLock { received.append(processed) }
          changed()
        }
      }
    }
  }

  /// Whether `action` is the one the current send dispatched, and which send it belongs to.
  private func causeOf(_ action: any StoreAction) -> Cause {
    guard let marker = SendMarker.current, marker.log === self else {
      return Cause(action: readableActionDescription(action), isSent: false, sentBy: nil)
    }
    let isSent = marker.claim()
    return Cause(action: readableActionDescription(action), isSent: isSent, sentBy: marker)
  }

  /// The sent action of `marker`'s send, once processed.
  func sentAction(of marker: SendMarker) -> Processed? {
    lock.withLock { marker.processed as? Processed }
  }

  // MARK: Received actions

  /// The received actions not asserted yet, oldest first.
  var pendingReceived: [Processed] {
    lock.withLock { received }
  }

  /// Removes and returns the oldest received action, if any.
  func popReceived() -> Processed? {
    lock.withLock { received.isEmpty ? nil : received.removeFirst() }
  }

  /// Removes the received actions up to and including the first that satisfies `matches`, and
  /// returns it; leaves them all and returns `nil` if none does.
  func popReceived(firstMatching matches: (any StoreAction) -> Bool) -> Processed? {
    lock.withLock {
      guard let index = received.firstIndex(where: { matches($0.action) }) else { return nil }
      let found = received[index]
      received.removeFirst(index + 1)
      return found
    }
  }

  /// Forgets the received actions; returns them.
  @discardableResult
  func clearReceived() -> [Processed] {
    lock.withLock {
      defer { received = [] }
      return received
    }
  }

  // MARK: Effects

  /// The effects in flight, in the order they started.
  var runningEffects: [RunningEffect] {
    lock.withLock { running.sorted { $0.key < $1.key }.map(\.value) }
  }

  /// Forgets the effects in flight (their ends are then ignored).
  func forgetRunningEffects() {
    lock.withLock { running = [:] }
  }

  private func effectStarted(_ description: String, cause: Cause) -> @Sendable () -> Void {
    let id = lock.withLock { () -> UInt64 in
      nextEffectID += 1
      running[nextEffectID] = RunningEffect(description: description, cause: cause)
      return nextEffectID
    }
    return { [weak self] in
      guard let self else { return }
      lock.withLock { _ = running.removeValue(forKey: id) }
      changed()
    }
  }

  // MARK: Waiting

  /// How a wait ended.
  enum WaitOutcome {
    /// The condition holds.
    case satisfied
    /// The timeout passed.
    case timedOut
    /// Nothing happened for ``stallInterval`` while a watched scheduler held work: the test
    /// must advance it. The message says which scheduler, and when its next work is due.
    case stalled(String)
  }

  /// How long a wait watching schedulers lets nothing happen before it gives up, when one of
  /// them holds work.
  static var stallInterval: Duration { .milliseconds(200) }

  /// Suspends until `condition` holds or `timeout` passes; returns whether it holds. The
  /// condition is checked on the caller's task, first at once, then whenever an action is
  /// received or an effect ends.
  nonisolated(nonsending) func wait(timeout: Duration, until condition: () -> Bool) async -> Bool {
    guard case .satisfied = await wait(timeout: timeout, watching: [], until: condition) else {
      return false
    }
    return true
  }

  /// Suspends until `condition` holds or `timeout` passes, like ``wait(timeout:until:)``; and
  /// if `schedulers` is not empty, also stops when nothing has happened for
  /// ``stallInterval`` (no action received, no effect ended, no scheduler advanced or given
  /// work) while one of them holds work: the only thing that could make progress then is an
  /// advance the test forgot.
  nonisolated(nonsending) func wait(
    timeout: Duration, watching schedulers: [any ManuallyAdvancedScheduler],
    until condition: () -> Bool
  ) async -> WaitOutcome {
    let deadline = ContinuousClock.now + timeout
    var quiet = (
      since: ContinuousClock.now, changes: lock.withLock { changes },
      work: schedulers.map(\.waitingWork)
    )
    while true {
      let seen = lock.withLock { changes }
      if condition() { return .satisfied }
      let now = ContinuousClock.now
      if now >= deadline { return .timedOut }
      var wakeUp = deadline
      if !schedulers.isEmpty {
        let work = schedulers.map(\.waitingWork)
        if seen != quiet.changes || work != quiet.work {
          quiet = (now, seen, work)
        } else if now - quiet.since >= Self.stallInterval,
          let stall = Self.stallMessage(schedulers, work)
        {
          return .stalled(stall)
        }
        // Look again when the quiet will have lasted long enough; if it has already, no
        // scheduler holds work: look again one interval from now (work may be scheduled
        // without anything else changing).
        let quietLongEnough = now - quiet.since >= Self.stallInterval
        wakeUp = min(
          deadline, quietLongEnough ? now + Self.stallInterval : quiet.since + Self.stallInterval)
      }
      let until = wakeUp
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resume = ResumeOnce(continuation)
        let id = lock.withLock { () -> UInt64? in
          // Something changed between the check and now: check again at once.
          guard changes == seen else { return nil }
          nextWaiterID += 1
          waiters[nextWaiterID] = resume.callAsFunction
          return nextWaiterID
        }
        guard let id else { return resume() }
        let timer = Task {
          try? await Task.sleep(until: until, clock: .continuous)
          resume()
        }
        resume.onResume { [self] in
          timer.cancel()
          lock.withLock { _ = waiters.removeValue(forKey: id) }
        }
      }
    }
  }

  /// "advance the test scheduler TestSchedulerOf<DispatchQueue>: the next action is scheduled
  /// at +300 ms", for the first of `schedulers` that holds work (`work` is what each holds).
  private static func stallMessage(
    _ schedulers: [any ManuallyAdvancedScheduler], _ work: [WaitingWork]
  ) -> String? {
    guard let index = work.firstIndex(where: { $0.count > 0 }) else { return nil }
    let position = schedulers.count > 1 ? " (schedulers[\(index)])" : ""
    let due = work[index].nextDueIn.map { " at +\(readableDuration($0))" } ?? ""
    return "advance the test scheduler \(schedulers[index])\(position): the next action is "
      + "scheduled\(due)"
  }

  /// Counts a change (an action received, an effect ended) and wakes the waiters.
  private func changed() {
    let woken = lock.withLock { () -> [() -> Void] in
      changes &+= 1
      defer { waiters = [:] }
      return Array(waiters.values)
    }
    for wake in woken { wake() }
  }
}

/// Why an action was processed: its description, whether the test sent it, and the send during
/// which it was processed (for a received action: the send whose processing dispatched it, or
/// started the task that did).
struct Cause: @unchecked Sendable {
  // @unchecked Sendable: immutable; the marker is itself thread-safe.
  let action: String
  let isSent: Bool
  let sentBy: SendMarker?
}

/// Marks the dispatch of one ``TestStore`` send, so that the log can tell the sent action from
/// the actions it causes.
final class SendMarker: @unchecked Sendable {
  // @unchecked Sendable: `claimed` is atomic; `processed` is guarded by the log's lock.

  /// The marker of the send in progress on this task or thread.
  @TaskLocal static var current: SendMarker?

  let log: AnyObject
  let site: CallSite
  let action: String
  private let claimed = Atomic<Bool>(false)
  /// The sent action once processed (read back by the send).
  var processed: Any?

  init(log: AnyObject, site: CallSite, action: String) {
    self.log = log
    self.site = site
    self.action = action
  }

  /// Returns `true` the first time only.
  func claim() -> Bool {
    !claimed.exchange(true, ordering: .acquiringAndReleasing)
  }
}

/// Resumes a continuation once, whichever of the waker and the timer comes first, then runs the
/// cleanup registered with ``onResume(_:)``.
private final class ResumeOnce: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Void, Never>?
  private var cleanup: (() -> Void)?
  private var resumed = false

  init(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation = continuation
  }

  func callAsFunction() {
    let (continuation, cleanup) = lock.withLock {
      () -> (CheckedContinuation<Void, Never>?, (() -> Void)?) in
      resumed = true
      defer {
        self.continuation = nil
        self.cleanup = nil
      }
      return (self.continuation, self.cleanup)
    }
    continuation?.resume()
    cleanup?()
  }

  func onResume(_ action: @escaping () -> Void) {
    let runNow = lock.withLock { () -> Bool in
      if resumed { return true }
      cleanup = action
      return false
    }
    if runNow { action() }
  }
}

/// `"300 ms"`, `"1.5 s"`, `"250 µs"`: a duration as a test writes it.
func readableDuration(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  if seconds >= 1 {
    return "\(decimal(seconds, attoseconds / 1_000_000_000_000_000, digits: 3)) s"
  }
  let nanoseconds = attoseconds / 1_000_000_000
  switch nanoseconds {
  case 1_000_000...:
    return "\(decimal(nanoseconds / 1_000_000, nanoseconds % 1_000_000, digits: 6)) ms"
  case 1_000...: return "\(decimal(nanoseconds / 1_000, nanoseconds % 1_000, digits: 3)) µs"
  default: return "\(nanoseconds) ns"
  }
}

/// `whole` and a fraction of `digits` decimal digits, without trailing zeros: `1.5`, `300`.
private func decimal(_ whole: Int64, _ fraction: Int64, digits: Int) -> String {
  guard fraction != 0 else { return "\(whole)" }
  let padded =
    String(repeating: "0", count: max(0, digits - String(fraction).count))
    + String(fraction)
  let trimmed = padded.reversed().drop { $0 == "0" }.reversed()
  return "\(whole).\(String(trimmed))"
}
