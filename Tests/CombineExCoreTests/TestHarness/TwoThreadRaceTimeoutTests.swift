import Foundation
import Synchronization
import Testing

/// The two-thread race that the subjects' and sequences' race tests run on (Tests/Shared) must
/// say, when it times out, whether the code under test hung or the machine starved the threads:
/// both helpers of one round saw "a thread timed out" on a loaded machine, with nothing to tell
/// the two apart.
@Suite("Test harness: a two-thread race that times out says where its workers were")
struct TwoThreadRaceTimeoutTests {
  @Test("an action that does not return is reported as a hang inside its round")
  func actionThatDoesNotReturnIsReportedAsAHang() async {
    let release = Atomic<Bool>(false)
    let result = await raceTwoThreads(
      rounds: 4, batch: 4, budgetSeconds: 20, secondsPerBatch: 5,
      prepare: { 0 },
      first: { _ in
        // Stands in for a deadlock; released below so that the thread ends. (The bound is 5 s,
        // not less, so that a loaded machine still starts the first round in time.)
        while !release.load(ordering: .acquiring) { usleep(1_000) }
      },
      second: { _ in },
      settle: { _ in nil })
    release.store(true, ordering: .releasing)
    #expect(result.timedOut)
    #expect(
      result.whereWorkersWere.contains("first worker inside round 1's action"),
      "\(result.whereWorkersWere)")
    #expect(result.summary.contains("a hang in the code under test"), "\(result.summary)")
  }

  @Test("a race whose actions return reports no timeout")
  func raceWhoseActionsReturnReportsNoTimeout() async {
    let result = await raceTwoThreads(
      rounds: 64, batch: 32, prepare: { 0 }, first: { _ in }, second: { _ in },
      settle: { _ in nil })
    #expect(!result.timedOut && result.whereWorkersWere.isEmpty, "\(result.summary)")
  }
}
