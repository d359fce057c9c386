import CombineExCore
import Foundation
import Testing

// A repeating schedule's cancel races its ticks: the cancel may come while a tick is being
// added, while its action runs, or between the two. Whatever the interleaving, once the cancel
// has returned and the work already started has ended, no action starts again, and the action
// (with what it captured) is released. Run under the thread sanitizer in CI (`stress`).
// An action taken from the queue just before a cancel may still start after it returns, so
// these tests do not count the ticks between the cancel and the drain; the scheduler tests
// pin, on a serial queue, that nothing starts after a cancel made between two ticks.

@Suite("stress: repeating schedules cancelled while they tick")
struct RepeatingScheduleStressTests {
  /// How many repeating schedules each test starts and cancels, from as many threads.
  static let schedules = 48

  @Test("stress: OperationQueue: cancels racing ticks stop every repetition and release it")
  func stressOperationQueueCancelRacingTicks() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 4
    let ticks = Counters(count: Self.schedules)
    let released = Counters(count: Self.schedules)
    await concurrentPerform(Self.schedules) { index in
      let captured = Captured { released.add(1, at: index) }
      let cancellable = queue.schedule(
        after: queue.now, interval: .milliseconds(index % 3)
      ) {
        withExtendedLifetime(captured) { ticks.add(1, at: index) }
      }
      // Some are cancelled before their first tick, the others while they tick.
      waitForTicks(index % 4, of: index, in: ticks)
      cancellable.cancel()
    }
    // The operations still in the queue are cancelled, so they leave it at once; the actions
    // already running end. After that, nothing adds an operation any more.
    let drained = Flag()
    queue.addBarrierBlock { drained.raise() }
    #expect(await drained.wait(timeout: .seconds(30)))
    #expect(await released.waitUntilAll(equal: 1))
    let ticksAfterDrain = ticks.values
    try? await Task.sleep(for: .milliseconds(20))
    #expect(ticks.values == ticksAfterDrain)
    #expect(queue.operationCount == 0)
  }

  @Test("stress: DispatchQueue: cancels racing ticks stop every timer and release its action")
  func stressDispatchQueueCancelRacingTicks() async {
    let queue = DispatchQueue(label: "repeating-stress", attributes: .concurrent)
    let ticks = Counters(count: Self.schedules)
    let released = Counters(count: Self.schedules)
    await concurrentPerform(Self.schedules) { index in
      let captured = Captured { released.add(1, at: index) }
      let cancellable = queue.schedule(
        after: queue.now, interval: .milliseconds(index % 3 + 1)
      ) {
        withExtendedLifetime(captured) { ticks.add(1, at: index) }
      }
      waitForTicks(index % 4, of: index, in: ticks)
      cancellable.cancel()
    }
    // A cancelled timer source releases its handler once a handler already running returns.
    #expect(await released.waitUntilAll(equal: 1))
    let ticksAfterRelease = ticks.values
    try? await Task.sleep(for: .milliseconds(20))
    #expect(ticks.values == ticksAfterRelease)
  }
}

// MARK: - Helpers

/// Spins (yielding its thread) until schedule `index` ticked `count` times, for 5 s at most: a
/// loaded machine may tick late, and the race only needs some cancels to land among ticks.
private func waitForTicks(_ count: Int, of index: Int, in ticks: Counters) {
  let deadline = DispatchTime.now() + .seconds(5)
  while ticks.value(at: index) < count, DispatchTime.now() < deadline {
    sched_yield()
  }
}

/// Calls `onRelease` when released: what a scheduled action captures.
private final class Captured: Sendable {
  private let onRelease: @Sendable () -> Void
  init(onRelease: @escaping @Sendable () -> Void) { self.onRelease = onRelease }
  deinit { onRelease() }
}

/// One counter per schedule, thread-safe.
private final class Counters: Sendable {
  private let counts: LockedBox<[Int]>

  init(count: Int) { counts = LockedBox(Array(repeating: 0, count: count)) }

  var values: [Int] { counts.withLock { $0 } }

  func value(at index: Int) -> Int { counts.withLock { $0[index] } }

  func add(_ amount: Int, at index: Int) { counts.withLock { $0[index] += amount } }

  /// Waits until every counter equals `expected`, for 30 s at most; `false` if one never did.
  func waitUntilAll(equal expected: Int) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      if values.allSatisfy({ $0 == expected }) { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return values.allSatisfy { $0 == expected }
  }
}
