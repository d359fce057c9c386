import CombineEx
import Foundation
import Testing

/// A request from one thread racing a send on another must never be lost (ARCHITECTURE.md
/// rule 1). Issue 27: the conduit held the value back (moving the subscriber's cursor in the
/// replay buffer) and set the "behind" flag only afterwards; a request in between added
/// demand, found no flag and left the value to the next send, and the completion that came
/// next skipped the subscriber as behind: it was stuck for good.
///
/// The deterministic regression test is the interleaving explorer's
/// (`ExploredCombineExHandshakeTests`); this one races real threads, as users do.
@Suite("ReplaySubject: a request racing a send")
struct ReplaySubjectRequestRaceTests {
  /// The subject, and a subscriber that has received the first value with its one unit of
  /// demand: a send now finds it without demand.
  struct Round: Sendable {
    let subject: ReplaySubject<Int, Never>
    let subscriber: KeepingSubscriber<Int>
  }

  @Test("stress: a value sent while another thread requests it is delivered, then the completion")
  func stressReplaySubjectRequestRacingSend() async {
    let result = await raceTwoThreads(
      rounds: 4_000,
      prepare: {
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        let subscriber = KeepingSubscriber<Int>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(0)
        return Round(subject: subject, subscriber: subscriber)
      },
      first: { $0.subject.send(1) },
      second: { $0.subscriber.request(.max(1)) },
      settle: { round in
        round.subject.send(completion: .finished)
        let log = round.subscriber.log
        return log == ["0", "1", "finished"] ? nil : log.joined(separator: ", ")
      })
    #expect(result.failures.isEmpty && !result.timedOut, "\(result.summary)")
  }
}
