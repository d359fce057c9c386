import CombineEx
import Foundation
import Testing

/// The rules of ARCHITECTURE.md section 1, checked for every registered publisher by the
/// generic harness (see Docs/Reliability.md).
@Suite("conformance: every registered publisher obeys the rules")
struct ConformanceTests {
  @Test(
    "demand, completion, cancellation and release hold under fixed and random schedules",
    arguments: Registry.cases)
  func rulesUnderSchedules(_ testCase: ConformanceCase) async {
    let problems = await ConformanceChecks.runGuarded(testCase) {
      ConformanceChecks.schedules(testCase)
    }
    #expect(problems.isEmpty, "\(testCase.name):\n\(problems.joined(separator: "\n"))")
  }

  @Test(
    "re-entrant request, send and cancel from inside receive change nothing but timing",
    arguments: Registry.cases)
  func reentrancy(_ testCase: ConformanceCase) async {
    let problems = await ConformanceChecks.runGuarded(testCase) {
      ConformanceChecks.reentrancy(testCase)
    }
    #expect(problems.isEmpty, "\(testCase.name):\n\(problems.joined(separator: "\n"))")
  }

  @Test(
    "a value delivered, dropped or evicted is released while the subscription lives",
    arguments: Registry.cases.filter { $0.traits.contains(.storesValues) })
  func storedValuesReleased(_ testCase: ConformanceCase) async {
    let problems = await ConformanceChecks.runGuarded(testCase) {
      testCase.storedValuesReleased()
    }
    #expect(problems.isEmpty, "\(testCase.name):\n\(problems.joined(separator: "\n"))")
  }

  @Test(
    "a misbehaving upstream cannot make the publisher deliver after its end",
    arguments: Registry.cases.filter { !$0.traits.contains(.passThrough) })
  func misbehavingUpstreams(_ testCase: ConformanceCase) async {
    let problems = await ConformanceChecks.runGuarded(testCase) {
      ConformanceChecks.misbehavingUpstreams(testCase)
    }
    #expect(problems.isEmpty, "\(testCase.name):\n\(problems.joined(separator: "\n"))")
  }
}

/// The checks the conformance tests run for each case; each returns the problems it found, one
/// line each, with the scenario (and its seed) that shows them.
enum ConformanceChecks {
  /// Random scenarios per case and check (kept small: the whole suite runs in seconds).
  static let randomScenarioCount = 100
  static let reentrancyScenarioCount = 100
  static let misbehavingScenarioCount = 32

  /// Runs `checks` on a thread of its own and reports a deadlock if it does not finish in time.
  static func runGuarded(
    _ testCase: ConformanceCase, _ checks: @escaping @Sendable () -> [String]
  ) async -> [String] {
    await runGuarded(name: testCase.name, checks)
  }

  /// The slots for checks running at once.
  static let checkSlots = CheckSlots(max(1, ProcessInfo.processInfo.activeProcessorCount))

  /// Runs `checks` on a thread of its own and reports a deadlock if it does not finish in time.
  static func runGuarded(
    name: String, _ checks: @escaping @Sendable () -> [String]
  ) async -> [String] {
    let result = ProblemList()
    // At most one check per core runs at a time: hundreds of parameterized cases each on a
    // thread of its own would starve the rest of the suite (tasks waiting for a thread of the
    // cooperative pool) on a small machine. The watchdog starts once the check has its slot.
    await checkSlots.acquire()
    let finished = await finishesInTime(.seconds(60)) {
      let problems = checks()
      result.set(problems)
    }
    await checkSlots.release()
    if !finished {
      return ["deadlock: the checks of \(name) did not finish within 60 seconds"]
    }
    return result.problems
  }

  /// Scenarios that spell out the common situations, for every kind of upstream delivery.
  static func fixedScenarios() -> [Scenario] {
    var scenarios: [Scenario] = []
    var seed: UInt64 = 1_000_000
    func add(
      _ behaviour: ProbeBehaviour, _ steps: [Scenario.Step], scripts: [SourceScript]? = nil
    ) {
      for delivery in SourceDelivery.allCases {
        seed += 1
        scenarios.append(
          Scenario(
            seed: seed, delivery: delivery, behaviour: behaviour, steps: steps, scripts: scripts))
      }
    }
    let oneByOne = ProbeBehaviour(initialDemand: .none)
    let three = SourceScript(values: [1, 2, 3], end: .finished)
    // Demand one value at a time: each request gets a value or the completion.
    add(oneByOne, Array(repeating: [.request(.max(1)), .pump], count: 8).flatMap { $0 })
    // Unlimited demand at once.
    add(ProbeBehaviour(initialDemand: .unlimited), [.pump], scripts: [three])
    // No demand at all: nothing may arrive but a completion that needs no value.
    add(oneByOne, [.pump], scripts: [three])
    // Demand comes only after the upstream has finished.
    add(
      oneByOne,
      [.pump, .request(.max(1)), .pump, .request(.max(1)), .pump, .request(.unlimited), .pump],
      scripts: [three])
    // The upstream fails at once, or after values.
    add(
      ProbeBehaviour(initialDemand: .max(1)), [.pump],
      scripts: [SourceScript(values: [], end: .failure(1))])
    add(
      ProbeBehaviour(initialDemand: .unlimited), [.pump],
      scripts: [SourceScript(values: [0, 2], end: .failure(2))])
    // Cancel before any demand, after one value, and from inside receive(subscription:).
    add(oneByOne, [.cancel, .request(.max(1)), .pump], scripts: [three])
    add(ProbeBehaviour(initialDemand: .max(1)), [.pump, .cancel, .request(.unlimited), .pump])
    add(ProbeBehaviour(cancelInSubscription: true), [.request(.unlimited), .pump])
    // Cancel from inside receive(_:), twice.
    add(ProbeBehaviour(cancelAtValue: 1, cancelsTwice: true), [.pump], scripts: [three])
    // Request and cancel from inside receive(completion:).
    add(ProbeBehaviour(callsBackOnCompletion: true), [.pump], scripts: [three])
    return scenarios
  }

  static func describe(_ problems: [String], in scenario: Scenario) -> [String] {
    problems.map { "\($0)\n    in \(scenario)" }
  }

  /// Rules 1 to 3 (and the serial-delivery part of 5) under fixed and random scenarios.
  static func schedules(_ testCase: ConformanceCase) -> [String] {
    let random = (1...randomScenarioCount).map { Scenario.random(seed: UInt64($0)) }
    return (fixedScenarios() + random).flatMap { scenario in
      describe(testCase.run(scenario).violations, in: scenario)
    }
  }

  /// Rule 4: asking for demand from inside `receive` (returned, requested, requested with a
  /// nested upstream send) gives exactly what asking afterwards gives; cancelling from inside
  /// the n-th `receive` gives exactly the first n values and nothing else.
  static func reentrancy(_ testCase: ConformanceCase) -> [String] {
    var problems: [String] = []
    for index in 1...reentrancyScenarioCount {
      var base = Scenario.random(seed: 5_000 + UInt64(index))
      base.behaviour.cancelAtValue = nil
      base.behaviour.cancelInSubscription = false
      base.behaviour.mode = .deferred
      let reference = testCase.run(base)
      problems += describe(reference.violations, in: base)
      for mode in DemandMode.allCases where mode != .deferred {
        var scenario = base
        scenario.behaviour.mode = mode
        let outcome = testCase.run(scenario)
        problems += describe(outcome.violations, in: scenario)
        // A nested send moves a value at a time the schedule would not when the source does
        // not wait for the subscriber's demand (a driven subject, or an upstream the
        // publisher keeps subscribed with unlimited demand).
        let comparable =
          !outcome.usesClock
          && (mode != .requestedInsideWithNestedSend
            || !(outcome.hasDrivenSources || testCase.traits.contains(.keepsUpstream)))
        if comparable, !sameEvents(outcome.events, reference.events, testCase.traits) {
          problems += describe(
            [
              "asking for demand \(mode.rawValue) changed what arrived: \(outcome.events) "
                + "instead of \(reference.events) (demand asked after receive returned)"
            ], in: scenario)
        }
      }
      let valueCount = reference.events.filter { $0.hasPrefix("v:") }.count
      guard valueCount > 0 else { continue }
      for cancelAt in 1...min(valueCount, 3) {
        var scenario = base
        scenario.behaviour.cancelAtValue = cancelAt
        scenario.behaviour.mode = index.isMultiple(of: 2) ? .requestedInside : .returned
        let outcome = testCase.run(scenario)
        problems += describe(outcome.violations, in: scenario)
        let expected = reference.events.values(upTo: cancelAt)
        if !outcome.usesClock, !sameEvents(outcome.events, expected, testCase.traits) {
          problems += describe(
            [
              "cancelling inside value #\(cancelAt) gave \(outcome.events) instead of "
                + "\(expected)"
            ], in: scenario)
        }
      }
    }
    return problems
  }

  /// Rule 2 against upstreams that keep sending to a subscription that was cancelled or
  /// completed, and send it a second subscription.
  static func misbehavingUpstreams(_ testCase: ConformanceCase) -> [String] {
    (1...misbehavingScenarioCount).flatMap { index in
      var scenario = Scenario.random(seed: 9_000 + UInt64(index))
      scenario.careless = true
      if index.isMultiple(of: 2) { scenario.steps.insert(.cancel, at: scenario.steps.count - 1) }
      return describe(testCase.run(scenario).violations, in: scenario)
    }
  }

  /// Whether two runs received the same events; always true for a publisher whose upstreams
  /// interleave (which values get through depends on when demand arrives).
  static func sameEvents(_ lhs: [String], _ rhs: [String], _ traits: CaseTraits) -> Bool {
    traits.contains(.timingDependent) || lhs == rhs
  }
}

extension Array where Element == String {
  /// The events up to and including the `count`-th value (`v:` event).
  func values(upTo count: Int) -> [String] {
    var result: [String] = []
    var values = 0
    for event in self {
      guard event.hasPrefix("v:") else { continue }
      result.append(event)
      values += 1
      if values == count { break }
    }
    return result
  }
}

/// Problems handed from the checking thread to the test.
final class ProblemList: @unchecked Sendable {
  // @unchecked Sendable: `stored` is guarded by `lock`.
  private let lock = NSLockBox()
  private var stored: [String] = []

  var problems: [String] { lock.withLock { stored } }

  func set(_ problems: [String]) { lock.withLock { stored = problems } }
}

/// A counting semaphore for tasks: `acquire()` waits, without holding a thread, until a slot is
/// free.
actor CheckSlots {
  private var free: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(_ count: Int) { free = count }

  func acquire() async {
    if free > 0 {
      free -= 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      free += 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
