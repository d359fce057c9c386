// Shared by every test target: each target's Support folder links to this file.
import Foundation

/// Runs `body(0)` … `body(count - 1)` on threads of their own, one thread per iteration up to
/// ``maximumStressThreads``, and returns when every iteration is done.
///
/// Why not `DispatchQueue.concurrentPerform` or `DispatchQueue.global()`: on Linux the Swift
/// concurrency runtime runs tasks on Dispatch's global worker threads, as many as there are
/// cores. CPU-bound stress work there keeps every async test of the run from resuming: on a
/// two-core CI machine a recorder timed out after 5 seconds waiting for a task that never got
/// a thread. Threads of their own leave the pool free, and the kernel shares the cores fairly.
func concurrentPerform(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
  precondition(count >= 0, "concurrentPerform needs a count of zero or more, not \(count)")
  guard count > 0 else { return }
  let threadCount = min(count, maximumStressThreads)
  let progress = LockedBox((nextIteration: threadCount, runningThreads: threadCount))
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    for first in 0..<threadCount {
      let thread = Thread {
        var iteration = first
        while true {
          body(iteration)
          // The next iteration to run, or nil when none is left; the last thread to find none
          // resumes the caller.
          let (next, isLastThread) = progress.withLock { state -> (Int?, Bool) in
            guard state.nextIteration < count else {
              state.runningThreads -= 1
              return (nil, state.runningThreads == 0)
            }
            defer { state.nextIteration += 1 }
            return (state.nextIteration, false)
          }
          guard let next else {
            if isLastThread { continuation.resume() }
            return
          }
          iteration = next
        }
      }
      thread.start()
    }
  }
}

/// How many threads ``concurrentPerform(_:_:)`` starts at most; iterations beyond it wait for a
/// thread to finish one.
let maximumStressThreads = 8
