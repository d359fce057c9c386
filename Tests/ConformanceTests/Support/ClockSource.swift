import CombineEx
import CombineExTesting
import Foundation

/// Virtual time as an upstream the harness drives: each scripted "value" advances a
/// `TestScheduler` by one second, and every pump round ends by running what falls due in the
/// next ten seconds. Operators that need a scheduler (`delay`, `debounce`, `timeout`,
/// `receive(on:)`, timers ...) are checked by the generic harness with it.
///
/// Create it after the operator's other sources, so that each pump round lets the sources send
/// before time moves.
final class ClockSource: DrivableSource, @unchecked Sendable {
  // @unchecked Sendable: `cursor` and `flushes` are guarded by `lock`; the scheduler is
  // thread-safe.
  typealias Scheduler = TestSchedulerOf<DispatchQueue>

  let label = "the clock"
  let script: SourceScript
  /// The scheduler to give the operator under test.
  let scheduler: Scheduler = DispatchQueue.test
  private let lock = NSLockBox()
  private var cursor = 0
  private var flushes = 0

  init(script: SourceScript) {
    self.script = script
  }

  var seesDemand: Bool { false }
  var subscriptionStatuses: [SourceStatus] { [] }
  var isExhausted: Bool { lock.withLock { cursor >= script.values.count } }
  /// Time is "live" until every step was taken and due work was run at least once after.
  var isLive: Bool { lock.withLock { cursor < script.values.count || flushes == 0 } }
  var leakWatch: [WeakReference] { [] }
  var progressMark: Int { lock.withLock { cursor } }

  func sendNext() -> Bool {
    let step = lock.withLock { () -> Bool in
      guard cursor < script.values.count else { return false }
      cursor += 1
      return true
    }
    if step { scheduler.advance(by: .seconds(1)) }
    return step
  }

  /// Runs the work due in the next ten seconds. Reports no progress of its own: the harness
  /// sees what the work did to the subscriber and the other sources.
  func completeIfExhausted() -> Bool {
    flush()
    return false
  }

  func completeEarly(failing: Bool) {}

  func misbehave(sendingValue: Bool) -> [String] { [] }

  func releaseSubscribers() {}

  /// Lets scheduled work (a delivery, a cancel forwarded on the scheduler) run after the end.
  func settleAfterEnd() { scheduler.advance(by: .seconds(10)) }

  private func flush() {
    let exhausted = lock.withLock { () -> Bool in
      guard cursor >= script.values.count else { return false }
      flushes += 1
      return true
    }
    scheduler.advance(by: .seconds(exhausted ? 10 : 0))
  }
}
