import Foundation

/// Runs `body` on a thread of its own and returns its result once it has ended, without
/// blocking the test's task or a thread of the cooperative pool (the body may block freely).
func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// Starts `body` on a thread of its own; ``join(seconds:)`` waits for it (bounded).
final class SideThread: @unchecked Sendable {
  // @unchecked Sendable: the semaphore is thread-safe and nothing else is stored.
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () -> Void) {
    let done = done
    Thread {
      body()
      done.signal()
    }.start()
  }

  /// Waits for the thread to end; `false` if it did not within `seconds`.
  func join(seconds: Double = 10) -> Bool {
    done.wait(timeout: .now() + seconds) == .success
  }
}

/// A number identifying the calling thread.
func currentThreadNumber() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #else
    return UInt(pthread_self())
  #endif
}

/// Waits for `semaphore` at most `seconds`; `true` if it was signalled.
func waitBounded(_ semaphore: DispatchSemaphore, seconds: Double = 10) -> Bool {
  semaphore.wait(timeout: .now() + seconds) == .success
}

/// The processor time the calling thread has used, in seconds.
func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
