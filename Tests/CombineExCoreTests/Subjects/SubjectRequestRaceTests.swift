import CombineExCore
import Foundation
import Testing

/// A request from one thread racing a send on another must never be lost (ARCHITECTURE.md
/// rule 1: one of the two sides always sees the other). Issue 27: the conduit decided to hold
/// the value back from a state it had loaded, and set the "behind" flag afterwards; a request
/// in between added demand, found no flag, and left the value to the next send.
///
/// The deterministic regression test is the interleaving explorer's
/// (`ExploredSubjectHandshakeTests`); these race real threads, as users do.
@Suite("A request racing a send")
struct SubjectRequestRaceTests {
  /// The subject, and a subscriber that has received the current value with its one unit of
  /// demand: a send now finds it without demand.
  struct Round: Sendable {
    let subject: CurrentValueSubject<Int, Never>
    let subscriber: KeepingSubscriber<Int>
  }

  @Test("stress: a CurrentValueSubject value sent while another thread requests it is delivered")
  func stressCurrentValueSubjectRequestRacingSend() async {
    let result = await raceTwoThreads(
      rounds: 10_000,
      prepare: {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = KeepingSubscriber<Int>(initialDemand: .max(1))
        subject.subscribe(subscriber)
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
