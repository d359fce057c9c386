#if DEBUG
  /// Runs a scenario of a few threads under a seeded schedule of turns at the core's
  /// ``Interleaving`` points, in the spirit of Rust's loom and of CHESS.
  ///
  /// Each body runs on a thread of its own. Between two points only one of them runs; at each
  /// point the schedule (a pseudo-random generator seeded with `seed`) picks which waiting
  /// thread passes next, so a seed replays the same interleaving. A thread that would sleep in
  /// ``Parking`` (a contended ``Lock``, a subject's delivery token, `multicast`'s subject
  /// creation) is marked asleep on that address instead, and is not picked until another
  /// thread unparks it; if every thread sleeps, the run is reported as a deadlock.
  ///
  /// Debug builds only. What the scenario checks (its oracle) is the caller's: the tests'
  /// `explore(_:seeds:)` helper runs many seeds and replays one with `INTERLEAVING_SEED`.
  package enum InterleavingExplorer {
    /// Runs `threads` under the schedule of `seed` and returns how it went, after every thread
    /// has returned (or, for a run that deadlocked or stalled, after at most `timeoutSeconds`
    /// more, during which its threads run freely).
    ///
    /// Blocks the calling thread: call it from a thread of its own, never from the cooperative
    /// pool.
    package static func run(
      seed: UInt64, timeoutSeconds: Double = 30, _ threads: [@Sendable () -> Void]
    ) -> InterleavingRun {
      precondition(!threads.isEmpty, "an explored scenario needs at least one thread")
      precondition(
        InterleavingParticipant.current == nil,
        "an explored scenario cannot start another exploration from one of its threads")
      return InterleavingExploration(seed: seed, threadCount: threads.count)
        .run(threads, timeoutSeconds: timeoutSeconds)
    }
  }
#endif
