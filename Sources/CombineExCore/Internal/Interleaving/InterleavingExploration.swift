#if DEBUG
  import Foundation

  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// One run of a scenario under the explorer: its threads, whose turn it is, and the seeded
  /// schedule that decides who passes next.
  ///
  /// Exactly one of the scenario's threads runs at a time (the one whose index is `turn`);
  /// the others wait at a point (`ready`), sleep on an address (`blocked`, after ``Parking``
  /// would have put them to sleep) or are done. The running thread gives the turn away at its
  /// next point (or when it blocks or ends), and the schedule picks the next among the ready
  /// threads. Nothing but this object's own pthread mutex and conditions is used here: a
  /// ``Lock`` or ``Parking`` would call back into the explorer.
  ///
  /// Every wait of the controlling thread is bounded: a scenario whose threads all sleep is
  /// reported as a deadlock, one that stops reaching points (a thread blocked somewhere the
  /// explorer cannot see, or running forever) as stalled. The run is then *abandoned*: points
  /// stop pausing and parked threads sleep for real, so the threads run on freely.
  final class InterleavingExploration: @unchecked Sendable {
    // @unchecked Sendable: every `var` is guarded by `mutex`; the pthread objects are made for
    // use by many threads and never move.

    /// Where one of the scenario's threads is.
    enum ThreadState {
      /// Started, not yet at its first point.
      case starting
      /// Waiting at point `point` for its turn.
      case ready(at: StaticString)
      /// Has the turn.
      case running
      /// Asleep on `address` (``Parking``) at `point`: not scheduled until a thread unparks it.
      case blocked(on: UnsafeRawPointer, at: StaticString)
      /// Its part of the scenario has returned.
      case finished
    }

    /// The most steps a run may take: a scenario that keeps passing points (a thread spinning
    /// on a point) is reported as stalled rather than run forever.
    static var maximumSteps: Int { 100_000 }

    /// How long the controlling thread waits for a thread outside the scenario to unpark one of
    /// the scenario's, when all of them sleep, before it reports a deadlock.
    static var deadlockGraceSeconds: Double { 1 }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// One condition per thread of the scenario, and the controlling thread's, last.
    private let wakeUps: UnsafeMutablePointer<pthread_cond_t>
    private let threadCount: Int
    private let seed: UInt64

    private var states: [ThreadState]
    private var turn: Int?
    private var schedule: InterleavingSchedule
    private var trace: [InterleavingStep] = []
    private var outcome = InterleavingRun.Outcome.completed
    private var abandoned = false
    private var arrived = 0
    private var finished = 0

    init(seed: UInt64, threadCount: Int) {
      self.seed = seed
      self.threadCount = threadCount
      schedule = InterleavingSchedule(seed: seed)
      states = Array(repeating: .starting, count: threadCount)
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
      wakeUps = .allocate(capacity: threadCount + 1)
      for index in 0...threadCount {
        (wakeUps + index).initialize(to: pthread_cond_t())
        pthread_cond_init(wakeUps + index, nil)
      }
    }

    deinit {
      for index in 0...threadCount { pthread_cond_destroy(wakeUps + index) }
      wakeUps.deinitialize(count: threadCount + 1)
      wakeUps.deallocate()
      pthread_mutex_destroy(mutex)
      mutex.deinitialize(count: 1)
      mutex.deallocate()
    }

    // MARK: The controlling thread

    /// Starts one thread per body, lets them take turns until all have returned, and says how
    /// it went. Waits at most `timeoutSeconds` for the scenario (and as long again for the
    /// threads of an abandoned run to return).
    func run(_ bodies: [@Sendable () -> Void], timeoutSeconds: Double) -> InterleavingRun {
      InterleavingRegistry.shared.add(self)
      defer { InterleavingRegistry.shared.remove(self) }
      for (index, body) in bodies.enumerated() {
        let participant = InterleavingParticipant(exploration: self, index: index)
        let thread = Thread { [self] in
          InterleavingParticipant.setCurrent(participant)
          arrive(participant)
          body()
          InterleavingParticipant.setCurrent(nil)
          leave(participant)
        }
        thread.stackSize = 1 << 20
        thread.start()
      }
      pthread_mutex_lock(mutex)
      superviseUntilDone(deadline: Date(timeIntervalSinceNow: timeoutSeconds))
      let wasAbandoned = abandoned
      pthread_mutex_unlock(mutex)
      if wasAbandoned {
        // Let the threads run out (freely), so that the caller can look at what they did.
        pthread_mutex_lock(mutex)
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        while finished < threadCount, wait(wakeUps + threadCount, until: deadline) {}
        pthread_mutex_unlock(mutex)
      }
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return InterleavingRun(seed: seed, outcome: outcome, trace: trace)
    }

    /// The controlling thread's loop (mutex held): starts the first turn once every thread has
    /// arrived, then waits for the end, a deadlock or the deadline.
    private func superviseUntilDone(deadline: Date) {
      var sleepingSince: Date?
      while !abandoned, finished < threadCount {
        if arrived == threadCount, turn == nil {
          if states.contains(where: { if case .ready = $0 { true } else { false } }) {
            passTurn(from: nil)
            continue
          }
          // Every unfinished thread sleeps: wait a little for an unpark from outside.
          let since = sleepingSince ?? Date()
          sleepingSince = since
          let graceEnd = since.addingTimeInterval(Self.deadlockGraceSeconds)
          if !wait(wakeUps + threadCount, until: min(graceEnd, deadline)) {
            let sleepers = states.indices.compactMap { index -> String? in
              guard case .blocked(_, let point) = states[index] else { return nil }
              return "T\(index) at \(point)"
            }
            abandon(
              .deadlocked(
                "every thread is asleep waiting for another: " + sleepers.joined(separator: ", ")))
          }
          continue
        }
        sleepingSince = nil
        if !wait(wakeUps + threadCount, until: deadline) {
          let holder = turn.map { "T\($0), after \(trace.last?.description ?? "its start")," }
          abandon(
            .stalled(
              "no point was reached in time: \(holder ?? "a thread") did not come back (it blocks "
                + "somewhere the explorer cannot see, or runs forever)"))
        }
      }
    }

    // MARK: The scenario's threads

    /// A thread of the scenario starts: it waits for its first turn.
    private func arrive(_ participant: InterleavingParticipant) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      states[participant.index] = .ready(at: "start")
      arrived += 1
      if arrived == threadCount { pthread_cond_signal(wakeUps + threadCount) }
      waitForTurn(participant.index)
    }

    /// A thread of the scenario has returned from its body.
    private func leave(_ participant: InterleavingParticipant) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      states[participant.index] = .finished
      finished += 1
      if abandoned || finished == threadCount {
        pthread_cond_signal(wakeUps + threadCount)
      } else {
        passTurn(from: participant.index)
      }
    }

    /// The running thread reached point `name`: it waits there until the schedule picks it.
    func pause(_ participant: InterleavingParticipant, at name: StaticString) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      guard !abandoned else { return }
      states[participant.index] = .ready(at: name)
      passTurn(from: participant.index)
      waitForTurn(participant.index)
    }

    /// ``Parking/park(on:while:)`` for a thread of the scenario: instead of sleeping, the thread
    /// is marked asleep on `address` and gives the turn away, until a thread unparks it and
    /// the schedule picks it; then `mustWait` is evaluated again. Returns `false` if the run
    /// was abandoned meanwhile: the caller then parks for real.
    func park(
      _ participant: InterleavingParticipant, on address: UnsafeRawPointer,
      while mustWait: () -> Bool
    ) -> Bool {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      while !abandoned {
        // Evaluated under `mutex`, which `unparked(_:)` takes too: an unpark from a thread
        // outside the scenario is not lost between the check and the sleep.
        guard mustWait() else { return true }
        states[participant.index] = .blocked(on: address, at: "parking.park")
        passTurn(from: participant.index)
        waitForTurn(participant.index)
      }
      return false
    }

    /// A thread (of the scenario or not) unparked `address`: the scenario's threads asleep on
    /// it may run again.
    func unparked(_ address: UnsafeRawPointer) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      var woke = false
      for index in states.indices {
        if case .blocked(let sleepingOn, _) = states[index], sleepingOn == address {
          states[index] = .ready(at: "parking.unparked")
          woke = true
        }
      }
      // All the others were asleep: the controlling thread hands the turn out.
      if woke, turn == nil { pthread_cond_signal(wakeUps + threadCount) }
    }

    // MARK: Turns (mutex held)

    /// Gives the turn to a ready thread chosen by the schedule (perhaps `current` again), or to
    /// nobody when none is ready.
    private func passTurn(from current: Int?) {
      let ready = states.indices.filter { if case .ready = states[$0] { true } else { false } }
      guard !ready.isEmpty else {
        turn = nil
        pthread_cond_signal(wakeUps + threadCount)
        return
      }
      guard trace.count < Self.maximumSteps else {
        abandon(.stalled("more than \(Self.maximumSteps) steps: the threads never finish"))
        return
      }
      let chosen = schedule.choose(among: ready, current: current)
      guard case .ready(let point) = states[chosen] else { return }
      trace.append(InterleavingStep(thread: chosen, point: point))
      turn = chosen
      if chosen != current { pthread_cond_signal(wakeUps + chosen) }
    }

    /// Waits until the thread has the turn (or the run is abandoned).
    private func waitForTurn(_ index: Int) {
      while turn != index, !abandoned {
        pthread_cond_wait(wakeUps + index, mutex)
      }
      if !abandoned { states[index] = .running }
    }

    /// Ends the schedule: every thread runs on freely.
    private func abandon(_ outcome: InterleavingRun.Outcome) {
      self.outcome = outcome
      abandoned = true
      turn = nil
      for index in 0...threadCount { pthread_cond_broadcast(wakeUps + index) }
    }

    /// Waits on `condition` (mutex held) until it is signalled or `deadline` passes; `false` on
    /// timeout.
    private func wait(_ condition: UnsafeMutablePointer<pthread_cond_t>, until deadline: Date)
      -> Bool
    {
      let seconds = deadline.timeIntervalSince1970
      guard seconds > Date().timeIntervalSince1970 else { return false }
      var time = timespec()
      time.tv_sec = Int(seconds)
      time.tv_nsec = Int((seconds - seconds.rounded(.down)) * 1_000_000_000)
      return pthread_cond_timedwait(condition, mutex, &time) == 0
    }
  }
#endif
