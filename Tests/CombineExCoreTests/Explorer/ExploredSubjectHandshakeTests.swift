#if DEBUG
  import CombineExCore
  import Foundation
  import Testing

  /// The subjects' lock-free handshakes (the conduit's offer, hold-back, request and cancel;
  /// the delivery token's take, hand-over and release; the token wait in ``Parking``), driven
  /// by small scenarios under the interleaving explorer: each test runs its scenario under
  /// `exploredSeeds` seeded schedules, and a failure prints the seed and how to replay it
  /// (Docs/Reliability.md, "Interleavings explored").
  @Suite("Interleavings explored: subjects")
  struct ExploredSubjectHandshakeTests {
    @Test("explored over 2,000 seeds: a CurrentValueSubject send racing a request is delivered")
    func exploreCurrentValueSubjectSendVersusRequest() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = ExploredSubscriber(log: log, initialDemand: .max(1))
        subject.subscribe(subscriber)  // receives 0: no demand left
        return ExploredScenario(
          threads: [
            { log.run("T0 send 1") { subject.send(1) } },
            { log.run("T1 request 1") { subscriber.request(.max(1)) } },
          ],
          verdict: {
            log.run("finish") { subject.send(completion: .finished) }
            return subscriber.verdict(expecting: [0, 1], completed: true)
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test(
      "explored over 2,000 seeds: a CurrentValueSubject cancelled during sends gets nothing after")
    func exploreCurrentValueSubjectSendVersusCancel() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = ExploredSubscriber(log: log, initialDemand: .unlimited)
        subject.subscribe(subscriber)
        return ExploredScenario(
          threads: [
            {
              log.run("T0 send 1") { subject.send(1) }
              log.run("T0 send 2") { subject.send(2) }
            },
            { log.run("T1 cancel") { subscriber.cancel() } },
          ],
          verdict: {
            log.run("finish") { subject.send(completion: .finished) }
            // A send that returned before the cancel began was delivered (sends are
            // synchronous); nothing begun after the cancel returned was (the subscriber checks).
            let owed = [1, 2].filter {
              log.logged("T0 send \($0) returns", before: "T1 cancel begins")
            }
            return subscriber.verdict(expected: "a prefix of [0, 1, 2] with \(owed), no completion")
            {
              values, completed in
              !completed && [[0], [0, 1], [0, 1, 2]].contains(values)
                && owed.allSatisfy(values.contains)
            }
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test("explored over 2,000 seeds: subscribing while values and the completion are sent")
    func exploreCurrentValueSubjectAttachVersusSendVersusCompletion() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = ExploredSubscriber(log: log, initialDemand: .unlimited)
        return ExploredScenario(
          threads: [
            { log.run("T0 subscribe") { subject.subscribe(subscriber) } },
            {
              log.run("T1 send 1") { subject.send(1) }
              log.run("T1 send 2") { subject.send(2) }
            },
            { log.run("T2 finish") { subject.send(completion: .finished) } },
          ],
          verdict: {
            // Attached before the completion: the current value first, then every later one,
            // so it ends with the subject's last value; attached after it: only the completion.
            let attachedFirst = log.logged("T0 subscribe returns", before: "T2 finish begins")
            let last = subject.value
            return subscriber.verdict(expected: "values ending with \(last), then the completion") {
              values, completed in
              completed && (values.isEmpty ? !attachedFirst : values.last == last)
            }
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test("explored over 2,000 seeds: two senders and a requester contend for the delivery token")
    func explorePassthroughSubjectTokenContention() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = PassthroughSubject<Int, Never>()
        let limited = ExploredSubscriber(log: log, initialDemand: .max(2))
        let unlimited = ExploredSubscriber(log: log, initialDemand: .unlimited)
        subject.subscribe(limited)
        subject.subscribe(unlimited)
        return ExploredScenario(
          threads: [
            {
              log.run("T0 send 100") { subject.send(100) }
              log.run("T0 send 101") { subject.send(101) }
            },
            {
              log.run("T1 send 200") { subject.send(200) }
              log.run("T1 send 201") { subject.send(201) }
            },
            { log.run("T2 request 2") { limited.request(.max(2)) } },
          ],
          verdict: {
            log.run("finish") { subject.send(completion: .finished) }
            // The limited subscriber gets the first two values at least, and all four if the
            // request returned before any send began; the other one gets all four.
            let requestedFirst = ["T0 send 100 begins", "T1 send 200 begins"].allSatisfy {
              log.logged("T2 request 2 returns", before: $0)
            }
            let first = limited.verdict(expected: "two to four values, then the completion") {
              values, completed in
              completed && values.count >= 2 && (!requestedFirst || values.count == 4)
            }
            let second = unlimited.verdict(expected: "all four values, then the completion") {
              values, completed in
              completed && values.sorted() == [100, 101, 200, 201]
            }
            return first ?? second
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test("explored over 2,000 seeds: threads waiting for multicast's subject sleep and wake")
    func exploreMulticastSubjectCreation() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let source = PassthroughSubject<Int, Never>()
        let creations = LockedBox(0)
        let multicast = source.multicast { () -> PassthroughSubject<Int, Never> in
          creations.withLock { $0 += 1 }
          // User code that takes a while: the other thread finds the subject being created
          // and parks until it exists.
          Interleaving.point("test.createSubject")
          return PassthroughSubject()
        }
        let first = ExploredSubscriber(log: log, initialDemand: .unlimited)
        let second = ExploredSubscriber(log: log, initialDemand: .unlimited)
        return ExploredScenario(
          threads: [
            { log.run("T0 subscribe") { multicast.subscribe(first) } },
            { log.run("T1 subscribe") { multicast.subscribe(second) } },
          ],
          verdict: {
            let connection = multicast.connect()
            log.run("send 1") { source.send(1) }
            log.run("finish") { source.send(completion: .finished) }
            connection.cancel()
            let created = creations.withLock { $0 }
            if created != 1 { return "createSubject ran \(created) times. Log: \(log.text)" }
            let firstVerdict = first.verdict(expecting: [1], completed: true)
            return firstVerdict ?? second.verdict(expecting: [1], completed: true)
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }
  }
#endif
