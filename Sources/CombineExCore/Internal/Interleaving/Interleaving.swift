import Synchronization

/// The hooks of the interleaving explorer: named points in the core's lock-free handshakes
/// where, in a debug build, the threads of an explored scenario take turns.
///
/// The handshakes (a subject conduit's offer, hold-back, request and cancel; the delivery
/// token; ``Parking``; ``Lock``; the outbox and delivery queue of the operators; CombineEx's
/// action gate) call ``point(_:)`` between the steps another thread may observe. Outside an
/// exploration a point does nothing. During one (``InterleavingExplorer``), a thread that runs
/// the scenario stops at each point until the explorer's seeded schedule lets it pass, so that
/// between two points only one of the scenario's threads runs, and a seed replays the same
/// interleaving. Threads that are not part of the scenario pass every point at once.
///
/// Release builds compile the hooks to nothing (the benchmarks and the performance gate build
/// release). In a debug build a point costs one relaxed atomic load while no exploration runs.
///
/// Points are never taken while the thread holds a ``Lock``: a critical section is atomic for
/// every other thread anyway, and a thread stopped inside one would make the others block on
/// it for real.
@usableFromInline
package enum Interleaving {
  /// A named point of a handshake: in an exploration, the calling thread (if it is one of the
  /// scenario's) waits here for its turn.
  @inlinable
  @inline(__always)
  package static func point(_ name: StaticString) {
    #if DEBUG
      if _slowPath(interleavingExplorationsRunning.load(ordering: .relaxed) != 0) {
        InterleavingParticipant.current?.pause(at: name)
      }
    #endif
  }

  /// A ``Lock`` is being acquired: a point, and (while exploring) the start of a critical
  /// section, inside which points are not taken.
  @inlinable
  @inline(__always)
  package static func enterCriticalSection() {
    #if DEBUG
      if _slowPath(interleavingExplorationsRunning.load(ordering: .relaxed) != 0) {
        InterleavingParticipant.current?.enterCriticalSection()
      }
    #endif
  }

  /// A ``Lock`` was released.
  @inlinable
  @inline(__always)
  package static func exitCriticalSection() {
    #if DEBUG
      if _slowPath(interleavingExplorationsRunning.load(ordering: .relaxed) != 0) {
        InterleavingParticipant.current?.exitCriticalSection()
      }
    #endif
  }
}

#if DEBUG
  /// How many explorations are running: the only thing a point reads when it is zero.
  @usableFromInline
  let interleavingExplorationsRunning = Atomic<Int>(0)
#endif
