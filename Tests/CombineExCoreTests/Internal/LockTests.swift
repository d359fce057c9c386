import CombineExCore
import Foundation
import Testing

/// The core's `Lock` (a `package` type, reached from the tests of the same package).
@Suite("Lock")
struct LockTests {
  @Test("stress: 8 threads incrementing under the lock lose no update")
  func stressMutualExclusion() async {
    final class Counter: @unchecked Sendable {
      // @unchecked Sendable: `value` is guarded by `lock`.
      let lock = Lock()
      var value = 0
    }
    let counter = Counter()
    await concurrentPerform(8) { _ in
      for _ in 0..<20_000 {
        counter.lock.withLock { counter.value += 1 }
      }
    }
    #expect(counter.lock.withLock { counter.value } == 8 * 20_000)
  }

  @Test("a thread waiting for a lock held for a long time sleeps instead of spinning")
  func waiterSleeps() async {
    final class Shared: @unchecked Sendable {
      // @unchecked Sendable: only touched under `lock`, or through thread-safe semaphores.
      let lock = Lock()
    }
    let shared = Shared()
    let cpuSeconds = await onOwnThread { () -> Double in
      let held = DispatchSemaphore(value: 0)
      let cpu = LockedBox(0.0)
      let waiter = SideThread {
        _ = waitBounded(held)
        let start = threadCPUSeconds()
        shared.lock.withLock {}
        cpu.withLock { $0 = threadCPUSeconds() - start }
      }
      shared.lock.withLock {
        held.signal()
        // A holder that takes long (a test's stand-in for a preempted one).
        _ = waiter.join(seconds: 0.3)
      }
      _ = waiter.join()
      return cpu.withLock { $0 }
    }
    #expect(cpuSeconds < 0.1, "the waiting thread used \(cpuSeconds) s of processor time")
  }

  #if DEBUG && !canImport(Darwin)
    @Test("acquiring the lock again on the thread that holds it stops with a message")
    func reentrantAcquireTraps() async {
      await #expect(processExitsWith: .failure) {
        let lock = Lock()
        lock.withLock {
          lock.withLock {}
        }
      }
    }
  #endif
}
