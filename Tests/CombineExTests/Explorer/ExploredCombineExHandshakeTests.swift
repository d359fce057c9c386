#if DEBUG
  import CombineEx
  import Foundation
  import Testing

  /// CombineEx's handshakes under the interleaving explorer: `ReplaySubject` and
  /// `MutableProperty` (the core's subject conduits and delivery token, in their replaying and
  /// property modes) and `Action`'s gate. Each test runs its scenario under `exploredSeeds`
  /// seeded schedules; a failure prints the seed and how to replay it (Docs/Reliability.md,
  /// "Interleavings explored").
  @Suite("Interleavings explored: ReplaySubject, MutableProperty, Action")
  struct ExploredCombineExHandshakeTests {
    @Test(
      "explored over 2,000 seeds: a ReplaySubject send racing a request is delivered (issue 27)")
    func exploreReplaySubjectSendVersusRequest() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        let subscriber = ExploredSubscriber(log: log, initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(0)  // delivered: no demand left
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
      "explored over 2,000 seeds: a ReplaySubject subscriber behind catches up, then completes"
    )
    func exploreReplaySubjectBehindSubscriberCatchesUp() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        let subscriber = ExploredSubscriber(log: log, initialDemand: .none)
        subject.subscribe(subscriber)
        return ExploredScenario(
          threads: [
            {
              log.run("T0 send 1") { subject.send(1) }
              log.run("T0 send 2") { subject.send(2) }
              log.run("T0 finish") { subject.send(completion: .finished) }
            },
            {
              log.run("T1 request 1") { subscriber.request(.max(1)) }
              log.run("T1 request 1 more") { subscriber.request(.max(1)) }
            },
          ],
          // The buffer keeps both values; the completion follows them and needs no demand.
          verdict: { subscriber.verdict(expecting: [1, 2], completed: true) })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test(
      "explored over 2,000 seeds: a ReplaySubject subscriber cancelled during sends"
    )
    func exploreReplaySubjectSendVersusCancel() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let subscriber = ExploredSubscriber(log: log, initialDemand: .max(1))
        subject.subscribe(subscriber)
        return ExploredScenario(
          threads: [
            {
              log.run("T0 send 1") { subject.send(1) }
              log.run("T0 send 2") { subject.send(2) }
            },
            {
              log.run("T1 request 1") { subscriber.request(.max(1)) }
              log.run("T1 cancel") { subscriber.cancel() }
            },
          ],
          verdict: {
            log.run("finish") { subject.send(completion: .finished) }
            return subscriber.verdict(expected: "a prefix of [1, 2], no completion") {
              values, completed in
              !completed && [[], [1], [1, 2]].contains(values)
            }
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test(
      "explored over 2,000 seeds: subscribing to a ReplaySubject during sends and completion"
    )
    func exploreReplaySubjectAttachVersusSendVersusCompletion() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let subscriber = ExploredSubscriber(log: log, initialDemand: .unlimited)
        return ExploredScenario(
          threads: [
            { log.run("T0 subscribe") { subject.subscribe(subscriber) } },
            {
              for value in 1...3 { log.run("T1 send \(value)") { subject.send(value) } }
            },
            { log.run("T2 finish") { subject.send(completion: .finished) } },
          ],
          verdict: {
            // Whenever it attaches, the subscriber gets the kept values it has not seen, the
            // later ones, then the completion: it ends with the value a subscriber attached now
            // ends with (the last one sent before the completion).
            let late = ExploredSubscriber(log: log, initialDemand: .unlimited)
            log.run("late subscribe") { subject.subscribe(late) }
            let last = late.values.last
            return subscriber.verdict(
              expected: "values ending with \(last.map(String.init) ?? "none"), then the completion"
            ) {
              values, completed in
              completed && values.last == last
            }
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test("explored over 2,000 seeds: a MutableProperty set racing a request is delivered")
    func exploreMutablePropertySetVersusRequest() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let property = MutableProperty(0)
        let subscriber = ExploredSubscriber(log: log, initialDemand: .max(1))
        property.subscribe(subscriber)  // receives 0: no demand left
        return ExploredScenario(
          threads: [
            { log.run("T0 set 1") { property.value = 1 } },
            { log.run("T1 request 1") { subscriber.request(.max(1)) } },
          ],
          verdict: { subscriber.verdict(expecting: [0, 1], completed: false) })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test(
      "explored over 2,000 seeds: a MutableProperty set inside a delivery and from another thread")
    func exploreMutablePropertySetInsideDeliveryVersusAnotherThread() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let property = MutableProperty(0)
        // The first subscriber answers 100 with 101, from inside its delivery: queued, and
        // delivered to everybody after the current delivery, in the same order for all.
        let answering = ExploredSubscriber(log: log, initialDemand: .unlimited) { value in
          if value == 100 { property.value = 101 }
        }
        let watching = ExploredSubscriber(log: log, initialDemand: .unlimited)
        property.subscribe(answering)
        property.subscribe(watching)
        return ExploredScenario(
          threads: [
            { log.run("T0 set 100") { property.value = 100 } },
            { log.run("T1 set 200") { property.value = 200 } },
          ],
          verdict: {
            let seen = answering.values
            let last = property.value
            let first = answering.verdict(expected: "0, then 100, 101 and 200, ending with \(last)")
            {
              values, _ in
              values.first == 0 && values.sorted() == [0, 100, 101, 200] && values.last == last
            }
            let second = watching.verdict(expected: "what the first subscriber saw, \(seen)") {
              values, _ in values == seen
            }
            return first ?? second
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test(
      "explored over 2,000 seeds: Action's gate against two applies and a cancel"
    )
    func exploreActionGateApplyVersusApplyVersusCancel() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let started = LockedBox<[Int]>([])
        let refused = LockedBox<[Int]>([])
        let runs = LockedBox<[Int: AnyCancellable]>([:])
        let cancelledFirst = LockedBox(false)
        let action = Action<Int, Int, Never> { input in
          AnyDeferredPublisher {
            started.withLock { $0.append(input) }
            return Empty<Int, Never>(completeImmediately: false)  // in flight until cancelled
          }
        }
        let published = LockedBox<[Bool]>([])
        let watching = action.isExecuting.sink { value in published.withLock { $0.append(value) } }
        @Sendable func apply(_ input: Int) {
          log.run("T\(input - 1) apply \(input)") {
            let run = action.apply(input).sink(
              receiveCompletion: { completion in
                if case .failure(.disabled) = completion { refused.withLock { $0.append(input) } }
              },
              receiveValue: { _ in })
            runs.withLock { $0[input] = run }
          }
        }
        return ExploredScenario(
          threads: [
            { apply(1) },
            { apply(2) },
            {
              log.run("T2 cancel run 1") {
                if let run = runs.withLock({ $0[1] }) {
                  run.cancel()
                  cancelledFirst.withLock { $0 = true }
                }
              }
            },
          ],
          verdict: {
            defer {
              watching.cancel()
              runs.withLock { $0 = [:] }
            }
            let ran = started.withLock { $0 }
            let refusals = refused.withLock { $0 }
            let changes = published.withLock { $0 }
            let inFlight =
              ran.contains(2) || (ran.contains(1) && !cancelledFirst.withLock { $0 })
            var problems: [String] = []
            if Set(ran + refusals) != [1, 2] || ran.count + refusals.count != 2 {
              problems.append(
                "runs \(ran) and refusals \(refusals) do not account for both applies")
            }
            if ran.first == 2, ran.count > 1 {
              problems.append("run 1 started while run 2 was in flight")
            }
            if changes.first != false || zip(changes, changes.dropFirst()).contains(where: ==)
              || changes.filter({ $0 }).count != ran.count
            {
              problems.append("isExecuting published \(changes) for runs \(ran)")
            }
            if action.isExecuting.value != inFlight {
              problems.append("isExecuting is \(action.isExecuting.value) after runs \(ran)")
            }
            return problems.isEmpty ? nil : problems.joined(separator: "; ") + ". Log: \(log.text)"
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }
  }
#endif
