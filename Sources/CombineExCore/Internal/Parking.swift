#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where threads sleep while they wait for another thread: the sleeping slow path of ``Lock``,
/// of a subject's delivery token (``SubjectCore``) and of `multicast`'s subject creation.
///
/// A thread parks *on an address* (of the state it waits on) while a condition holds; a thread
/// that changes that state calls ``unparkAll(on:)`` with the same address. The table has a
/// fixed number of buckets, each a pthread mutex and condition variable; an address hashes to
/// one bucket, so unrelated waiters may share one and wake each other (they then check their
/// condition again and go back to sleep). This is the futex model (a wait queue keyed by
/// address), built on pthreads because Swift cannot call the variadic `syscall(2)` that reaches
/// the futex, and a C target would add a module to a package that has none. The thread
/// sanitizer understands pthread mutexes and conditions.
///
/// No wakeup is lost: `mustWait` is evaluated with the bucket's mutex held, and a waker changes
/// the state *before* it takes the same mutex to broadcast, so either the waiter sees the new
/// state and does not sleep, or it is already asleep when the broadcast comes.
///
/// In debug builds, a thread of a scenario run by the interleaving explorer (``Interleaving``)
/// does not sleep here: it is marked asleep on the address and gives its turn away until a
/// thread unparks the address (the explorer then reports a scenario whose threads all sleep as a
/// deadlock), and an unpark is a point of the exploration.
@usableFromInline
enum Parking {
  /// Sleeps while `mustWait()` returns `true`, re-evaluating it after every wakeup.
  ///
  /// `mustWait` runs with the bucket's mutex held: it may only read (or atomically update)
  /// atomics; it must not block, call out or take a ``Lock`` (whose slow path may park in the
  /// same bucket: a deadlock).
  @usableFromInline
  static func park(on address: UnsafeRawPointer, while mustWait: () -> Bool) {
    #if DEBUG
      // A thread of an explored scenario does not sleep: it gives its turn away until a thread
      // unparks `address` (see ``Interleaving``).
      if interleavingExplorationsRunning.load(ordering: .relaxed) != 0,
        let participant = InterleavingParticipant.current,
        participant.exploration.park(participant, on: address, while: mustWait)
      {
        return
      }
    #endif
    let bucket = ParkingTable.shared.bucket(for: address)
    pthread_mutex_lock(bucket.mutex)
    while mustWait() {
      pthread_cond_wait(bucket.condition, bucket.mutex)
    }
    pthread_mutex_unlock(bucket.mutex)
  }

  /// Wakes every thread parked on `address` (and any other parked in the same bucket). Call it
  /// after changing the state they wait on.
  @usableFromInline
  static func unparkAll(on address: UnsafeRawPointer) {
    Interleaving.point("parking.unpark")
    #if DEBUG
      if interleavingExplorationsRunning.load(ordering: .relaxed) != 0 {
        InterleavingRegistry.shared.unparked(address)
      }
    #endif
    let bucket = ParkingTable.shared.bucket(for: address)
    pthread_mutex_lock(bucket.mutex)
    pthread_cond_broadcast(bucket.condition)
    pthread_mutex_unlock(bucket.mutex)
  }
}

/// The buckets of ``Parking``: allocated once, never freed, never moved (pthread objects must
/// not move).
private struct ParkingTable: @unchecked Sendable {
  // @unchecked Sendable: the pointers are written once, in `init`, and the pthread objects they
  // point to are made for use by many threads.
  static let shared = ParkingTable()

  /// A power of two: the bucket is the top bits of a multiplicative hash of the address.
  static let bucketCountLog2 = 6

  let mutexes: UnsafeMutablePointer<pthread_mutex_t>
  let conditions: UnsafeMutablePointer<pthread_cond_t>

  init() {
    let count = 1 << Self.bucketCountLog2
    mutexes = .allocate(capacity: count)
    conditions = .allocate(capacity: count)
    for index in 0..<count {
      (mutexes + index).initialize(to: pthread_mutex_t())
      (conditions + index).initialize(to: pthread_cond_t())
      pthread_mutex_init(mutexes + index, nil)
      pthread_cond_init(conditions + index, nil)
    }
  }

  func bucket(for address: UnsafeRawPointer) -> (
    mutex: UnsafeMutablePointer<pthread_mutex_t>, condition: UnsafeMutablePointer<pthread_cond_t>
  ) {
    // Fibonacci hashing: neighbouring addresses (objects allocated together) spread out.
    let hash = UInt64(UInt(bitPattern: address)) &* 0x9E37_79B9_7F4A_7C15
    let index = Int(truncatingIfNeeded: hash >> UInt64(64 - Self.bucketCountLog2))
    return (mutexes + index, conditions + index)
  }
}
