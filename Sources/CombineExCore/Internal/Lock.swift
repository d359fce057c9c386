import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The one lock of the core: a small non-recursive lock guarding the stored properties of the
/// class that owns it.
///
/// Rule 6 of the architecture applies to every use: the closure passed to `withLock` only
/// reads and writes state. It never calls user code, a subscriber or a subscription; it returns
/// what the caller must do, and the caller does it after the lock is released. Critical
/// sections are therefore a few instructions long.
///
/// On Apple platforms this is `Mutex` (an `os_unfair_lock`). Elsewhere it is a
/// compare-and-swap lock that spins briefly and then yields the processor: uncontended it costs
/// one compare-and-swap and one plain store (about half of a futex mutex), and, because every
/// atomic operation is compiled into this module, the thread sanitizer sees the lock's
/// happens-before edges. (The standard library's `Mutex` takes contended locks inside the
/// uninstrumented runtime, so the sanitizer would report false races.)
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  #if canImport(Darwin)
    @usableFromInline
    let mutex = Mutex(())
  #else
    /// 0 when free, 1 when held.
    @usableFromInline
    let word = Atomic<UInt32>(0)
  #endif

  @inlinable
  package init() {}

  /// Runs `body` with the lock held and returns its result.
  @inlinable
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    #if canImport(Darwin)
      return try mutex.withLock { _ in try body() }
    #else
      if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
        lockContended()
      }
      defer { word.store(0, ordering: .releasing) }
      return try body()
    #endif
  }

  #if !canImport(Darwin)
    /// Waits for the lock: spin a little (the holder is only ever a few instructions away from
    /// releasing it), then yield the processor between attempts, so a holder that was
    /// preempted gets to run.
    @usableFromInline
    func lockContended() {
      var attempts = 0
      while true {
        if word.load(ordering: .relaxed) == 0,
          word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
        {
          return
        }
        attempts += 1
        if attempts > 64 { sched_yield() }
      }
    }
  #endif
}
