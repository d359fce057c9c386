import CombineEx
import Foundation
import Testing

/// Random chains of the synchronous operators, over random upstream schedules, checked against
/// an array-based model of the same chain (see `ChainOperator`).
///
/// A failure prints the seed; replay it alone with
/// `CONFORMANCE_SEED=<seed> swift test --filter randomChains`.
@Suite("random operator chains")
struct RandomChainTests {
  /// How many seeds CI runs (the whole test takes well under a second).
  static let seedCount: UInt64 = 2_000

  @Test("random chains of synchronous operators agree with the array model")
  func randomChainsAgreeWithTheModel() async {
    let replay = ProcessInfo.processInfo.environment["CONFORMANCE_SEED"].flatMap(UInt64.init)
    let seeds = replay.map { [$0] } ?? Array(1...Self.seedCount)
    let failures = await ConformanceChecks.runGuarded(name: "the random chains") {
      seeds.compactMap(RandomChain.check(seed:))
    }
    #expect(
      failures.isEmpty,
      """
      \(failures.count) of \(seeds.count) random chains disagree with the model; replay one \
      with CONFORMANCE_SEED=<seed> swift test --filter randomChains
      \(failures.prefix(10).joined(separator: "\n"))
      """)
  }

  @Test("the model itself: a known chain over a known schedule")
  func modelOfAKnownChain() {
    let stream = ModelStream(values: [3, 1, 1, 2, 0], end: .finished)
    let dedupe = ChainOperatorCatalog.removeDuplicates.model(stream)
    #expect(dedupe == ModelStream(values: [3, 1, 2, 0], end: .finished))
    let collected = ChainOperatorCatalog.collectTwo.model(stream)
    #expect(collected == ModelStream(values: [2004, 2003, 1000], end: .finished))
    let openCollected = ChainOperatorCatalog.collectTwo.model(
      ModelStream(values: [3, 1, 1], end: .open))
    #expect(openCollected == ModelStream(values: [2004], end: .open))
  }
}

/// Named operators, for the model's own tests.
enum ChainOperatorCatalog {
  static var removeDuplicates: ChainOperator { find("removeDuplicates()") }
  static var collectTwo: ChainOperator { find("collect(2).map(encode)") }

  private static func find(_ description: String) -> ChainOperator {
    var generator = SeededGenerator(seed: 1)
    while true {
      let candidate = ChainOperator.random(using: &generator)
      if candidate.description == description { return candidate }
    }
  }
}

/// Builds and checks one random chain.
enum RandomChain {
  /// A random schedule that, unlike the harness's, favours long scripts and generous demand,
  /// so that values travel through the whole chain.
  static func chainScenario(seed: UInt64, using generator: inout SeededGenerator) -> Scenario {
    var behaviour = ProbeBehaviour()
    behaviour.initialDemand = generator.pick([.none, .max(1), .max(3), .unlimited, .unlimited])
    behaviour.demandAfterValue = (0..<3).map { _ in generator.pick([0, 1, 1, 2]) }
    behaviour.mode = generator.pick(DemandMode.allCases)
    if generator.chance(0.1) { behaviour.cancelAtValue = generator.int(1...6) }
    behaviour.callsBackOnCompletion = generator.chance(0.2)
    var steps: [Scenario.Step] = []
    for _ in 0..<generator.int(2...8) {
      switch generator.int(0...19) {
      case 0...5: steps.append(.request(generator.pick([.max(1), .max(2), .max(5), .unlimited])))
      case 6...16: steps.append(.pump)
      case 17: steps.append(.cancel)
      default: steps.append(.completeSourceEarly(failing: generator.chance(0.5)))
      }
    }
    steps.append(.pump)
    if generator.chance(0.5) { steps += [.request(.unlimited), .pump] }
    let count = generator.int(0...10)
    var ends: [ScriptEnd] = [.finished, .finished, .open, .failure(generator.int(1...9))]
    if count == 0 { ends.append(.finished) }
    let script = SourceScript(
      values: (0..<count).map { _ in generator.int(0...3) }, end: generator.pick(ends))
    return Scenario(
      seed: seed, delivery: generator.pick(SourceDelivery.allCases), behaviour: behaviour,
      steps: steps, scripts: [script])
  }

  /// Runs the chain and schedule of `seed`; returns a report if anything disagrees with the
  /// model or breaks a rule.
  static func check(seed: UInt64) -> String? {
    var generator = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D)
    let operators = (0..<generator.int(1...5)).map { _ in
      ChainOperator.random(using: &generator)
    }
    let scenario = chainScenario(seed: seed, using: &generator)
    let environment = ConformanceEnvironment(scenario: scenario)
    let source = environment.ints()
    let probe = Probe<Int, ConformanceError>(behaviour: scenario.behaviour)
    probe.nestedSend = { _ = source.sendNext() }
    operators.reduce(source.eraseToAnyPublisher()) { $1.apply($0) }.subscribe(probe)
    let driver = ScenarioDriver(probe: probe, environment: environment)
    var problems: [String] = []

    func check(after step: String, liveness: Bool) {
      let upstream = source.sent
      let model = operators.reduce(ModelStream(values: upstream.values, end: upstream.end)) {
        $1.model($0)
      }
      let received = probe.events.compactMap { event in
        event.hasPrefix("v:") ? Int(event.dropFirst(2)) : nil
      }
      let context = "after \(step), upstream sent \(upstream), model \(model)"
      if Array(model.values.prefix(received.count)) != received {
        problems.append("received \(received), not a prefix of the model's values (\(context))")
      }
      if probe.isCompleted {
        let expected: String? =
          switch model.end {
          case .finished: "finished"
          case .failure(let id): "failure:\(ConformanceError(id))"
          case .open: nil
          }
        if probe.events.last != expected || received.count != model.values.count {
          problems.append("completed with \(probe.events) (\(context))")
        }
      }
      if probe.hasEnded, source.subscriptionStatuses.last == .live {
        problems.append("the stream ended but the upstream is still subscribed (\(context))")
      }
      if liveness, !probe.hasEnded, probe.outstanding > 0 {
        if received.count != model.values.count || model.end != .open {
          problems.append(
            "stalled with outstanding demand \(probe.outstanding.short): received "
              + "\(received) (\(context))")
        } else if source.isLive, !source.isExhausted {
          problems.append("stalled: the upstream has values left and no demand (\(context))")
        }
      }
    }

    driver.settle()
    check(after: "subscribing", liveness: false)
    for step in scenario.steps {
      driver.perform(step)
      let isPump: Bool
      if case .pump = step { isPump = true } else { isPump = false }
      check(after: step.description, liveness: isPump)
    }
    if !probe.hasEnded {
      probe.cancel()
      check(after: "the final cancel", liveness: false)
    }
    problems += probe.violations
    guard !problems.isEmpty else { return nil }
    return """
      seed \(seed): \(operators.map(\.description).joined(separator: " → ")) over \
      \(source.script) — \(scenario): \(problems.joined(separator: "; "))
      """
  }
}
