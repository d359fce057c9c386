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
/// sections are therefore a few instructions long. (Releasing an object runs its deinit: values
/// that user code may own are moved out and released after the lock, too.)
///
/// On Apple platforms this is `Mutex` (an `os_unfair_lock`, which sleeps and traps on a
/// recursive acquire). Elsewhere it is a compare-and-swap lock: uncontended it costs one
/// compare-and-swap and one exchange, and, because every atomic operation is compiled into this
/// module, the thread sanitizer sees the lock's happens-before edges. (The standard library's
/// `Mutex` takes contended locks inside the uninstrumented runtime, so the sanitizer would
/// report false races.) Contended, it spins briefly (the holder is only ever a few instructions
/// away from releasing it), then sleeps (``Parking``): a holder that was preempted, or a waiter
/// on a busy machine, costs no processor time.
///
/// The word is 0 when free, 1 when held, 2 when held and a thread may be asleep waiting for it
/// (the classic three-state futex mutex): releasing a word that was 2 wakes the sleepers.
///
/// In debug builds the lock remembers its owner, and a thread that acquires it again while it
/// holds it (a deinit or callback that runs under the lock and calls back into the same object)
/// stops with a message instead of waiting for itself forever. Acquiring it is also a point of
/// the interleaving explorer (``Interleaving``), which takes no point inside the critical
/// section; a scenario thread that would sleep here is scheduled by the explorer instead
/// (through ``Parking``).
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  #if canImport(Darwin)
    @usableFromInline
    let mutex = Mutex(())
  #else
    /// 0 when free, 1 when held, 2 when held with possible sleepers.
    @usableFromInline
    let word = Atomic<UInt32>(0)

    #if DEBUG
      /// The identity of the holding thread (debug builds only), to report a re-entrant
      /// acquire.
      @usableFromInline
      let owner = Atomic<UInt>(0)
    #endif
  #endif

  @inlinable
  package init() {}

  /// Runs `body` with the lock held and returns its result.
  @inlinable
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    // An explored scenario's threads take turns here; none stops inside the critical section.
    Interleaving.point("lock.acquire")
    #if canImport(Darwin)
      return try mutex.withLock { _ in
        Interleaving.enterCriticalSection()
        defer { Interleaving.exitCriticalSection() }
        return try body()
      }
    #else
      if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
        lockContended()
      }
      Interleaving.enterCriticalSection()
      #if DEBUG
        owner.store(currentThreadIdentity(), ordering: .relaxed)
      #endif
      defer {
        #if DEBUG
          owner.store(0, ordering: .relaxed)
        #endif
        let hadSleepers = word.exchange(0, ordering: .releasing) == 2
        Interleaving.exitCriticalSection()
        if hadSleepers { wakeSleepers() }
      }
      return try body()
    #endif
  }

  #if !canImport(Darwin)
    /// Waits for the lock: spin a little, then sleep until a release wakes this thread.
    @usableFromInline
    func lockContended() {
      #if DEBUG
        if owner.load(ordering: .relaxed) == currentThreadIdentity() {
          fatalError(
            "CombineEx: a lock was acquired again by the thread that holds it. Something ran "
              + "under the lock (typically a deinit of an object released while it was held) "
              + "and called back into the same object; this would wait for itself forever.")
        }
      #endif
      for _ in 0..<100 {
        if word.load(ordering: .relaxed) == 0,
          word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
        {
          return
        }
      }
      // Mark the lock as having a sleeper (2) and take it if it was free meanwhile; otherwise
      // sleep until a release, then try again. Taking it as 2 is conservative: its release
      // wakes sleepers that may not exist, which costs one spurious wakeup check.
      while word.exchange(2, ordering: .acquiring) != 0 {
        withUnsafePointer(to: word) { address in
          Parking.park(on: UnsafeRawPointer(address)) {
            word.load(ordering: .relaxed) == 2
          }
        }
      }
    }

    /// Wakes the threads sleeping on this lock (after a release of a word that was 2).
    @usableFromInline
    func wakeSleepers() {
      withUnsafePointer(to: word) { address in
        Parking.unparkAll(on: UnsafeRawPointer(address))
      }
    }
  #endif
}
