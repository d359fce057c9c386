// Shared by every test target: each target's Support folder links to this file.
import Foundation
import Synchronization

/// What ``raceTwoThreads(rounds:batch:budgetSeconds:secondsPerBatch:prepare:first:second:settle:)``
/// found.
struct TwoThreadRaceResult: Sendable {
  /// How many rounds ran (fewer than asked once the time budget ran out, or if a thread
  /// stopped arriving in time).
  var rounds = 0
  /// The failure descriptions `settle` returned, one per failed round.
  var failures: [String] = []
  /// Whether a worker thread did not come back within the bound (it is then abandoned).
  var timedOut = false
  /// Where each worker was when the race timed out: inside a round's action (the code under
  /// test did not return: a hang) or waiting to start one (the machine did not run the two
  /// threads together: starvation).
  var whereWorkersWere = ""

  /// "3 of 20000 rounds failed: 0, finished (2×); 0 (1×)", for a failure message.
  var summary: String {
    var counts: [String: Int] = [:]
    for failure in failures { counts[failure, default: 0] += 1 }
    let outcomes = counts.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value)×)" }
    return "\(failures.count) of \(rounds) rounds failed: "
      + outcomes.joined(separator: "; ")
      + (timedOut ? "; a thread timed out (\(whereWorkersWere))" : "")
  }
}

/// Races `first` and `second` against each other, `rounds` times, on two threads of their own,
/// and returns what `settle` reported for the rounds that went wrong.
///
/// Rounds run in batches: `prepare` builds a batch of fresh objects on the coordinating
/// thread; the two workers then go through the batch in step, round by round (the first starts
/// a round only when it sees the second spinning, waiting for it, so both act within a fraction
/// of a microsecond), and before acting one of them waits for a few nanoseconds to a few
/// microseconds, varying from round to round, so that the two actions meet at every offset;
/// once both are through, `settle` finishes each round on the coordinating thread and returns
/// `nil` if it went right, otherwise what went wrong. No new batch starts once `budgetSeconds`
/// have passed (on a machine so loaded that the two workers rarely run at the same time, the
/// race then runs fewer rounds rather than for minutes), and every wait is bounded: a worker
/// that starts no round for `secondsPerBatch` ends the race (``TwoThreadRaceResult/timedOut``)
/// instead of hanging the test.
///
/// Nothing runs on the cooperative pool: the coordinator and the workers are threads of their
/// own (see Docs/Reliability.md, "Keeping the cooperative pool free").
func raceTwoThreads<Round: Sendable>(
  rounds: Int,
  batch: Int = 256,
  budgetSeconds: Double = 5,
  secondsPerBatch: Double = 30,
  prepare: @escaping @Sendable () -> Round,
  first: @escaping @Sendable (Round) -> Void,
  second: @escaping @Sendable (Round) -> Void,
  settle: @escaping @Sendable (Round) -> String?
) async -> TwoThreadRaceResult {
  await withCheckedContinuation { (continuation: CheckedContinuation<TwoThreadRaceResult, Never>) in
    Thread {
      let race = TwoThreadRace<Round>(seconds: secondsPerBatch, workers: [first, second])
      continuation.resume(
        returning: race.run(
          rounds: rounds, batch: batch, budget: budgetSeconds, prepare: prepare, settle: settle))
    }.start()
  }
}

/// The coordinator and the two workers of
/// ``raceTwoThreads(rounds:batch:budgetSeconds:secondsPerBatch:prepare:first:second:settle:)``.
private final class TwoThreadRace<Round: Sendable>: Sendable {
  // Sendable: the counters are atomic; `rounds` is written by the coordinator before it
  // publishes a batch (releasing `batchNumber`) and read by the workers after they see it.
  let batchNumber = Atomic<Int>(0)
  let stop = Atomic<Bool>(false)
  /// The round the second worker has reached, and a counter it keeps bumping while it waits
  /// for the start: the first worker sees it move only while both run at once.
  let followerRound = Atomic<Int>(0)
  let followerHeartbeat = Atomic<Int>(0)
  /// The round the first worker has started (the second starts it too when it sees it).
  let startedRound = Atomic<Int>(0)
  let finishedBatches = Atomic<Int>(0)
  /// Where each worker is, for the report of a timeout: `2 * round + 1` inside round `round`'s
  /// action, `2 * round` once it returned (0: no round yet).
  let firstWorkerAt = Atomic<Int>(0)
  let secondWorkerAt = Atomic<Int>(0)
  let rounds = LockedBox<[Round]>([])
  let seconds: Double
  let workers: [@Sendable (Round) -> Void]

  init(seconds: Double, workers: [@Sendable (Round) -> Void]) {
    self.seconds = seconds
    self.workers = workers
  }

  func run(
    rounds count: Int, batch: Int, budget: Double, prepare: @Sendable () -> Round,
    settle: @Sendable (Round) -> String?
  ) -> TwoThreadRaceResult {
    let end = Date(timeIntervalSinceNow: budget)
    for index in workers.indices {
      Thread { [self] in serve(index) }.start()
    }
    defer { stop.store(true, ordering: .releasing) }
    var result = TwoThreadRaceResult()
    var number = 0
    while result.rounds < count, Date() < end {
      number += 1
      let objects = (0..<min(batch, count - result.rounds)).map { _ in prepare() }
      rounds.withLock { $0 = objects }
      followerRound.store(0, ordering: .relaxed)
      startedRound.store(0, ordering: .relaxed)
      batchNumber.store(number, ordering: .releasing)
      guard
        waitWhileRoundsStart(until: { finishedBatches.load(ordering: .acquiring) == 2 * number })
      else {
        result.timedOut = true
        result.whereWorkersWere =
          "batch \(number): first worker \(describe(firstWorkerAt)), "
          + "second worker \(describe(secondWorkerAt))"
        return result
      }
      for round in objects {
        if let failure = settle(round) { result.failures.append(failure) }
      }
      result.rounds += objects.count
    }
    rounds.withLock { $0 = [] }
    return result
  }

  /// A worker: goes through each batch in step with the other worker.
  private func serve(_ index: Int) {
    let body = workers[index]
    var done = 0
    while true {
      guard
        wait(until: {
          batchNumber.load(ordering: .acquiring) > done || stop.load(ordering: .acquiring)
        }), !stop.load(ordering: .acquiring)
      else { return }
      done += 1
      let batch = rounds.withLock { $0 }
      for (round, objects) in batch.enumerated() {
        guard index == 0 ? lead(round + 1) : follow(round + 1) else { return }
        // One of the two waits a little before acting: the offset goes from the first acting
        // 3 µs late to the second acting 3 µs late, in steps of 10 ns (601 offsets, visited in
        // a scattered order), so that two actions whose paths to the racing instruction differ
        // in length still meet there.
        let offset = (round * 7 % 601 - 300) * 10
        if (offset < 0) == (index == 0) { spin(nanoseconds: abs(offset)) }
        mark(worker: index, at: 2 * (round + 1) + 1)
        body(objects)
        mark(worker: index, at: 2 * (round + 1))
      }
      finishedBatches.add(1, ordering: .acquiringAndReleasing)
    }
  }

  /// The first worker's start of round `round`: once the second worker has reached it and is
  /// seen running (its heartbeat moves while this thread watches: on a loaded machine two
  /// threads are often not on a processor at the same time), starts it for both. After 20
  /// tries that never saw it running (the two may share one processor for a while), starts
  /// anyway.
  private func lead(_ round: Int) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    var tries = 0
    while true {
      if followerRound.load(ordering: .acquiring) >= round {
        tries += 1
        let beat = followerHeartbeat.load(ordering: .relaxed)
        for _ in 0..<2_000 where followerHeartbeat.load(ordering: .relaxed) != beat || tries > 20 {
          startedRound.store(round, ordering: .releasing)
          return true
        }
      }
      if Date() > deadline || stop.load(ordering: .relaxed) { return false }
      sched_yield()
    }
  }

  /// The second worker's start of round `round`: it says it is there, then spins (bumping its
  /// heartbeat) until the first worker starts the round, yielding now and then so that a
  /// descheduled first worker gets a processor.
  private func follow(_ round: Int) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    followerRound.store(round, ordering: .releasing)
    var spins = 0
    while startedRound.load(ordering: .acquiring) < round {
      followerHeartbeat.add(1, ordering: .relaxed)
      spins += 1
      if spins % 4_000 == 0 {
        if Date() > deadline || stop.load(ordering: .relaxed) { return false }
        sched_yield()
      }
    }
    return true
  }

  /// Records where worker `index` is (see ``firstWorkerAt``).
  private func mark(worker index: Int, at position: Int) {
    if index == 0 {
      firstWorkerAt.store(position, ordering: .relaxed)
    } else {
      secondWorkerAt.store(position, ordering: .relaxed)
    }
  }

  /// "inside round 17's action" or "after round 16's action", from a worker's position.
  private func describe(_ position: borrowing Atomic<Int>) -> String {
    let value = position.load(ordering: .relaxed)
    return value % 2 == 1
      ? "inside round \(value / 2)'s action (a hang in the code under test)"
      : "after round \(value / 2)'s action, waiting to start the next (starvation)"
  }

  /// Busy-waits `nanoseconds` (a sleep would take far longer).
  private func spin(nanoseconds: Int) {
    guard nanoseconds > 0 else { return }
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(nanoseconds)
    while DispatchTime.now().uptimeNanoseconds < end {}
  }

  /// Waits for a batch, until `condition` holds; `false` once no round has started for
  /// `seconds`. The bound is on progress, not on the whole batch: on a machine so loaded that
  /// each round's start takes many time slices (a single free processor shared with a whole
  /// test suite), a batch may take longer than `seconds`, and that is no hang; a worker stuck
  /// in a round is.
  private func waitWhileRoundsStart(until condition: () -> Bool) -> Bool {
    var lastRound = startedRound.load(ordering: .relaxed)
    var deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
      let round = startedRound.load(ordering: .relaxed)
      if round != lastRound {
        lastRound = round
        deadline = Date(timeIntervalSinceNow: seconds)
      } else if Date() > deadline {
        return false
      }
      usleep(1_000)
    }
    return true
  }

  /// Spins a little, then yields the processor, until `condition` holds; `false` after
  /// `seconds`.
  private func wait(until condition: () -> Bool) -> Bool {
    for _ in 0..<1_000 where condition() { return true }
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
      if Date() > deadline { return false }
      sched_yield()
    }
    return true
  }
}
