import CombineEx
import Foundation
import Synchronization
import Testing

/// What a publisher under test is allowed to do differently from the general rules, and why.
struct CaseTraits: OptionSet, Sendable {
  let rawValue: Int

  /// A stateless link with no subscription of its own (`map`, `filter`, `mapError`,
  /// `eraseToAnyPublisher` ...): it forwards the upstream's events as they come, so "nothing
  /// after cancel or completion" is its upstream's guarantee. The misbehaving-upstream checks
  /// are skipped (Combine's own stateless operators behave the same).
  static let passThrough = CaseTraits(rawValue: 1 << 0)
  /// May legitimately never complete, even once every source ended or when it has none
  /// (`Empty(completeImmediately: false)`, `MutableProperty`).
  static let neverCompletes = CaseTraits(rawValue: 1 << 1)
  /// Keeps its upstream subscription for its own lifetime, whatever its subscribers do
  /// (`Property(initial:then:)`): a subscriber's cancel is not meant to reach the upstream.
  static let keepsUpstream = CaseTraits(rawValue: 1 << 2)
  /// What arrives may legitimately depend on when demand arrives (several upstreams that
  /// interleave, a hot multicast that drops values sent without demand): the re-entrancy
  /// comparison of what arrived does not apply (the rules do).
  static let timingDependent = CaseTraits(rawValue: 1 << 3)
  /// May wait for one upstream before asking another for more (`flatMap(maxPublishers:)`
  /// waits for a live inner publisher, `zip` and `combineLatest` for the upstream that has not
  /// produced): an upstream with values but no demand is not a stall while another, exhausted
  /// but open, is live.
  static let waitsOnAnotherUpstream = CaseTraits(rawValue: 1 << 4)
  /// User code that keeps a promise legitimately keeps the subscription object behind it alive
  /// after the end (a `DeferredFuture` whose promise was never called): that object is left
  /// out of the release check (the subscriber and captured objects are not).
  static let promiseKeepsSubscription = CaseTraits(rawValue: 1 << 5)
  /// Passes the downstream's demand through to every upstream, so that an upstream's value
  /// that makes no output spends the demand it was given (`combineLatest`: Combine documents
  /// that it drops values under limited demand). An upstream left with values and no demand
  /// is not a stall; a publisher whose upstreams all ended must still complete.
  static let spendsDemandWithoutOutput = CaseTraits(rawValue: 1 << 6)
  /// Treats a request of `.none` as misuse and stops the program, as Combine's
  /// `URLSession.DataTaskPublisher` does: the harness leaves out the scenarios' `.none`
  /// requests.
  static let zeroDemandIsMisuse = CaseTraits(rawValue: 1 << 7)
  /// Stops the program when an upstream sends a value that was not requested, as Combine's
  /// `drop(untilOutputFrom:)` does for a value it would drop: a careless upstream sends no value
  /// to a subscriber that ended (it still sends the completion and the second subscription).
  static let unrequestedValueIsMisuse = CaseTraits(rawValue: 1 << 8)
  /// Keeps values it has not delivered yet (a queue, a buffer, a replay buffer, the latest
  /// value of each input): its sources send ``TrackedValue``s and its output carries them, and
  /// the stored-values check applies (rule 3: a value delivered, dropped or evicted is no
  /// longer retained while the subscription lives). The case's `keepsLatest` says how many of
  /// each source's most recent values it keeps by contract.
  static let storesValues = CaseTraits(rawValue: 1 << 9)
  /// A property: it keeps its current value, the latest output its subscriber received, so
  /// the stored-values check does not count the values in that output as retained.
  static let keepsLatestOutput = CaseTraits(rawValue: 1 << 10)
}

/// Where a case's publisher gets its upstreams: it creates scripted sources (which the
/// harness then drives) and canaries (objects to capture in closures, watched for leaks).
final class ConformanceEnvironment {
  let scenario: Scenario
  private var generator: SeededGenerator
  /// Guards `storedSources`, which a stress round's threads may read while an operator
  /// creates an inner source on another.
  private let sourcesLock = NSLockBox()
  private var storedSources: [any DrivableSource] = []
  /// Every source created so far, in order.
  var sources: [any DrivableSource] { sourcesLock.withLock { storedSources } }
  private(set) var canaries: [WeakReference] = []
  private var retained: [AnyObject] = []
  /// Makes and watches the values of ``trackedInts()`` and the other tracked sources.
  let tracker = ValueTracker()

  init(scenario: Scenario) {
    self.scenario = scenario
    generator = SeededGenerator(seed: scenario.seed ^ 0x5EED_5C41_7000_0001)
  }

  private func add(_ source: any DrivableSource) {
    sourcesLock.withLock { storedSources.append(source) }
  }

  /// Keeps `object` alive for the whole run (a property whose subscribers do not keep it).
  func retain(_ object: AnyObject) {
    retained.append(object)
  }

  /// A new object for the publisher's closures to capture; the harness checks it is freed
  /// once the pipeline ended. (Call `canary.pass(x)` inside a closure to capture it.)
  var canary: Canary {
    let canary = Canary()
    canaries.append(WeakReference("an object captured by the publisher's closures", canary))
    return canary
  }

  private func nextScript(canFail: Bool, canFinish: Bool = true) -> SourceScript {
    let index = sources.count
    if let scripts = scenario.scripts, index < scripts.count {
      var script = scripts[index]
      if !canFail, case .failure = script.end { script.end = canFinish ? .finished : .open }
      if !canFinish { script.end = .open }
      return script
    }
    return SourceScript.random(using: &generator, canFail: canFail, canFinish: canFinish)
  }

  /// A scripted source of any output and failure type. `value` turns the script's `Int`s into
  /// outputs; `failure` turns a failure id into an error (`nil`: the source never fails).
  func source<Output, Failure: Error>(
    _ label: String? = nil, value: @escaping (Int) -> Output,
    failure: ((Int) -> Failure)?
  ) -> ScriptedSource<Output, Failure> {
    let source = ScriptedSource(
      label: label ?? "upstream #\(sources.count + 1)",
      script: nextScript(canFail: failure != nil), delivery: scenario.delivery,
      releasesSubscribers: !scenario.careless, makeValue: value, makeFailure: failure)
    add(source)
    return source
  }

  /// A scripted source of `Int`s that may fail with a ``ConformanceError``.
  func ints() -> ScriptedSource<Int, ConformanceError> {
    source(value: { $0 }, failure: ConformanceError.init)
  }

  /// A scripted source of `Int`s that finishes but never fails (its failure type is still
  /// ``ConformanceError``; for `assertNoFailure`).
  func intsThatNeverFail() -> ScriptedSource<Int, ConformanceError> {
    source(value: { $0 }, failure: nil as ((Int) -> ConformanceError)?)
  }

  /// A scripted source of `Int`s whose failure type is `Never`.
  func neverFailingInts() -> ScriptedSource<Int, Never> {
    source(value: { $0 }, failure: nil as ((Int) -> Never)?)
  }

  /// Registers something the harness drives from outside (a subject, a property), which sends
  /// whatever the demand. `complete` is nil for one that never completes.
  func drive(
    _ label: String, keepAlive: AnyObject, canFail: Bool, send: @escaping (Int) -> Void,
    complete: ((ScriptEnd) -> Void)?
  ) {
    let script = nextScript(canFail: canFail, canFinish: complete != nil)
    add(
      DrivenSource(
        label: label, script: script, keepAlive: keepAlive, sendValue: send,
        sendCompletion: complete))
  }

  /// Virtual time, for operators that need a scheduler: give them `clock.scheduler`. Create it
  /// after the operator's other sources.
  func clock() -> ClockSource {
    let clock = ClockSource(script: nextScript(canFail: false, canFinish: false))
    add(clock)
    return clock
  }

  /// A `MutableProperty` driven by the harness, as a read-only `Property`.
  func drivenProperty() -> Property<Int> {
    let property = MutableProperty(-1)
    drive(
      "MutableProperty", keepAlive: property, canFail: false, send: { property.value = $0 },
      complete: nil)
    return Property(property)
  }

  /// A `PassthroughSubject` driven by the harness.
  func drivenPassthroughSubject() -> PassthroughSubject<Int, ConformanceError> {
    let subject = PassthroughSubject<Int, ConformanceError>()
    drive(
      "PassthroughSubject", keepAlive: subject, canFail: true, send: { subject.send($0) },
      complete: { subject.send(completion: Self.completion(for: $0)) })
    return subject
  }

  static func completion(for end: ScriptEnd) -> Subscribers.Completion<ConformanceError> {
    if case .failure(let id) = end { return .failure(ConformanceError(id)) }
    return .finished
  }
}

/// One run of a scenario against a publisher: what the subscriber received, and every rule
/// violation seen.
struct RunOutcome: Sendable {
  var events: [String] = []
  var violations: [String] = []
  /// Whether some source sends whatever the demand (a driven subject or property): a nested
  /// send from inside `receive` then moves a value at a time the schedule would not, so the
  /// re-entrancy comparison of nested sends does not apply.
  var hasDrivenSources = false
  /// Whether the run used the clock: deliveries that fall due together arrive in one burst,
  /// which demand asked after each `receive` cannot interleave, so the re-entrancy comparison
  /// does not apply.
  var usesClock = false
}

/// A publisher registered with the conformance suite: how to build it from the harness's
/// sources, and what it may do differently (``CaseTraits``).
struct ConformanceCase: Sendable, CustomTestStringConvertible {
  /// The operator or publisher as a user writes it (`map`, `prefix(while:)`, `Just`).
  let name: String
  /// The public type it produces, as the registry knows it (`Publishers.Map`).
  let typeName: String
  let traits: CaseTraits
  /// With ``CaseTraits/storesValues``: how many of each source's most recent values the
  /// publisher keeps by contract (a `ReplaySubject`'s buffer size, 1 for a current value or a
  /// `combineLatest` input's latest value), delivered or not.
  let keepsLatest: Int
  /// Runs one scenario.
  let run: @Sendable (Scenario) -> RunOutcome
  /// Runs one concurrent round (see ``Harness/stress(seed:traits:build:)``).
  let stress: @Sendable (UInt64) async -> StressReport
  /// Runs the stored-values check (see
  /// ``Harness/storedValuesReleased(traits:keepsLatest:build:)``).
  let storedValuesReleased: @Sendable () -> [String]

  var testDescription: String { "\(name) (\(typeName))" }

  init<P: Publisher & SendableMetatype>(
    _ name: String, _ typeName: String, traits: CaseTraits = [], keepsLatest: Int = 0,
    build: @escaping @Sendable (ConformanceEnvironment) -> P
  ) {
    self.name = name
    self.typeName = typeName
    self.traits = traits
    self.keepsLatest = keepsLatest
    run = { scenario in Harness.run(scenario, traits: traits, build: build) }
    stress = { seed in await Harness.stress(seed: seed, traits: traits, build: build) }
    storedValuesReleased = {
      Harness.storedValuesReleased(traits: traits, keepsLatest: keepsLatest, build: build)
    }
  }
}

/// Runs scenarios against publishers and checks the rules.
enum Harness {
  static func run<P: Publisher>(
    _ scenario: Scenario, traits: CaseTraits, build: (ConformanceEnvironment) -> P
  ) -> RunOutcome {
    let environment = ConformanceEnvironment(scenario: scenario)
    var outcome = RunOutcome()
    let (ended, watch) = drive(
      scenario, traits: traits, environment: environment, build: build, outcome: &outcome)
    // The subscriber and the publisher are gone now; the sources, like a long-lived upstream,
    // are still alive (and, being well-behaved, let go of subscribers that ended).
    if ended, !scenario.careless {
      // A publisher that keeps its upstream for its own lifetime still holds what it
      // subscribed upstream with.
      let upstreams =
        traits.contains(.keepsUpstream) ? [] : environment.sources.flatMap(\.leakWatch)
      let subscriptions =
        traits.contains(.promiseKeepsSubscription)
        ? watch.filter { !$0.label.hasPrefix("the subscription ") } : watch
      let everything = subscriptions + environment.canaries + upstreams
      for reference in everything where reference.isAlive {
        outcome.violations.append("still alive after the pipeline ended: \(reference.label)")
      }
    }
    // Careless sources keep subscribers that ended: let go of them, so that nothing is left.
    for source in environment.sources { source.releaseSubscribers() }
    return outcome
  }

  /// One concurrent round: up to four threads drive the upstreams (each upstream from one
  /// thread only, as the protocol requires), the others request one value at a time, and the
  /// last one, in half of the rounds, cancels while values flow. Returns the rules broken: two
  /// deliveries at once, more values than requested, more than one completion, a value after
  /// the completion, more than one event (the one already on its way) after `cancel()`
  /// returned.
  static func stress<P: Publisher>(
    seed: UInt64, traits: CaseTraits, build: (ConformanceEnvironment) -> P
  ) async -> StressReport {
    var generator = SeededGenerator(seed: seed)
    let length = generator.int(50...150)
    let script = SourceScript(
      values: (0..<length).map { _ in generator.int(0...3) },
      end: generator.pick([.finished, .failure(3)]))
    let scenario = Scenario(
      seed: seed, delivery: .pumped, behaviour: ProbeBehaviour(), steps: [],
      scripts: Array(repeating: script, count: 8))
    let environment = ConformanceEnvironment(scenario: scenario)
    let recorder = StressRecorder<P.Output, P.Failure>(initialDemand: .max(1))
    build(environment).subscribe(recorder)
    let shared = UncheckedSendableBox(environment)
    let cancels = generator.chance(0.5)
    let cancelAfter = generator.int(0...30)
    let requestersDone = AtomicCounter()
    // Up to four threads drive the upstreams (upstream i from thread i % drivers), the last
    // thread requests a little and may cancel, the others request.
    let drivers = max(1, min(environment.sources.count, 4))
    await onThreads(8) { thread in
      if thread < drivers {
        var idleRounds = 0
        while idleRounds < 100 {
          // Read again each time: an operator may have created inner sources meanwhile.
          let all = shared.value.sources
          let mine = all.indices.filter { $0 % drivers == thread }.map { all[$0] }
          if mine.isEmpty { break }
          var progress = false
          for source in mine {
            if source.sendNext() || source.completeIfExhausted() { progress = true }
          }
          if progress {
            idleRounds = 0
          } else if !mine.contains(where: { isActive($0, among: all) }) {
            break  // Every upstream was subscribed, and completed or was cancelled.
          } else {
            if requestersDone.value == 8 - drivers { idleRounds += 1 }
            sched_yield()
          }
        }
      } else if thread == 7 {
        for _ in 0..<cancelAfter { recorder.request(.max(1)) }
        if cancels { recorder.cancel() }
        requestersDone.increment()
      } else {
        for index in 0..<40 {
          recorder.request(.max(1))
          if index.isMultiple(of: 8) { sched_yield() }
        }
        requestersDone.increment()
      }
    }
    // The driving threads give up after a while without progress. On a loaded machine they
    // may give up before work another thread scheduled reaches an upstream (`subscribe(on:)`
    // forwards the subscription and every request on the clock, which a starved thread had
    // not advanced yet), so this thread pumps until nothing moves: the round then sees
    // everything that was requested, however the threads were scheduled.
    pumpUntilQuiet(environment, recorder: recorder)
    var problems: [String] = []
    if recorder.overlappingDeliveries > 0 {
      problems.append("\(recorder.overlappingDeliveries) deliveries overlapped another")
    }
    if recorder.exceededDemand { problems.append("more values arrived than were requested") }
    if recorder.completionCount > 1 { problems.append("\(recorder.completionCount) completions") }
    if recorder.valuesAfterCompletion > 0 {
      problems.append("\(recorder.valuesAfterCompletion) values arrived after the completion")
    }
    if recorder.eventsAfterCancel > 1 {
      problems.append("\(recorder.eventsAfterCancel) events arrived after cancel() returned")
    }
    let delivered = recorder.values.count + recorder.completionCount
    recorder.cancel()  // Leaves nothing running.
    for source in environment.sources { source.releaseSubscribers() }
    return StressReport(
      problems: problems.map { "seed \(seed)\(cancels ? " (cancelling)" : ""): \($0)" },
      events: delivered)
  }

  /// Subscribes a probe, performs the steps (cancelling at the end if the stream is still
  /// running), and checks the rules that concern the upstreams. Returns whether the stream
  /// ended, and weak references to what must then be freed.
  private static func drive<P: Publisher>(
    _ scenario: Scenario, traits: CaseTraits, environment: ConformanceEnvironment,
    build: (ConformanceEnvironment) -> P, outcome: inout RunOutcome
  ) -> (Bool, [WeakReference]) {
    let probe = Probe<P.Output, P.Failure>(behaviour: scenario.behaviour)
    var violations: [String] = []
    probe.nestedSend = { [unowned environment] in
      _ = environment.sources.last(where: \.isLive)?.sendNext()
    }
    do {
      let publisher = build(environment)
      publisher.subscribe(probe)
    }
    var checkedEnd = false
    func checkEnd(after step: String) {
      guard !checkedEnd, probe.hasEnded else { return }
      checkedEnd = true
      // Work a scheduler still holds (a cancel forwarded by `subscribe(on:)`) runs first.
      for source in environment.sources { source.settleAfterEnd() }
      guard !traits.contains(.keepsUpstream) else { return }
      let how = probe.isCancelled ? "the subscriber cancelled" : "the publisher completed"
      for source in environment.sources {
        for (index, status) in source.subscriptionStatuses.enumerated() where status == .live {
          violations.append(
            "\(how) (\(step)) but \(source.label)'s subscription #\(index + 1) is still live: "
              + "the end did not reach the upstream")
        }
      }
    }
    func checkLiveness() {
      guard !probe.hasEnded, probe.outstanding > 0 else { return }
      // A source nobody subscribed to yet (the suffix of `append`, a `catch` replacement)
      // is waiting for its turn, not stalled; if it is never subscribed, the next check
      // catches a publisher that does not complete.
      let stalled = environment.sources.filter { source in
        source.seesDemand && source.isLive && !source.isExhausted
      }
      let waitsOnInner =
        traits.contains(.spendsDemandWithoutOutput)
        || (traits.contains(.waitsOnAnotherUpstream)
          && environment.sources.contains { $0.isLive && $0.isExhausted })
      if !stalled.isEmpty, !waitsOnInner {
        violations.append(
          "stalled: the subscriber has outstanding demand (\(probe.outstanding.short)) but "
            + "\(stalled.map(\.label).joined(separator: ", ")) has values left and no demand")
      } else if !traits.contains(.neverCompletes), environment.sources.allSatisfy({ !$0.isLive }) {
        violations.append(
          "stalled: every upstream ended (or there is none) and the subscriber has outstanding "
            + "demand (\(probe.outstanding.short)), but neither a value nor the completion came")
      }
    }

    let driver = ScenarioDriver(probe: probe, environment: environment)
    driver.settle()
    checkEnd(after: "while subscribing")
    for step in scenario.steps {
      if traits.contains(.zeroDemandIsMisuse), case .request(Subscribers.Demand.none) = step {
        continue
      }
      driver.perform(step)
      if case .pump = step { checkLiveness() }
      checkEnd(after: "at step \(step)")
      probe.misuseAfterEnd()
    }
    // A stream still running at the end is cancelled, so that every run ends with the
    // cancel-reaches-upstream and release checks (and leaves nothing behind).
    if !probe.hasEnded {
      probe.cancel()
      checkEnd(after: "when the harness cancelled at the end")
      probe.misuseAfterEnd()
    }
    probe.releaseEndedSubscription()
    if scenario.careless, probe.hasEnded, !traits.contains(.passThrough) {
      for source in environment.sources {
        violations += source.misbehave(
          sendingValue: !traits.contains(.unrequestedValueIsMisuse))
      }
    }
    outcome.events = probe.events
    outcome.hasDrivenSources = environment.sources.contains { !$0.seesDemand }
    outcome.usesClock = environment.sources.contains { $0 is ClockSource }
    outcome.violations = probe.violations + violations
    return (probe.hasEnded, probe.subscriptionWatch + [WeakReference("the subscriber", probe)])
  }
}

/// A sequence of things that happen to a pipeline: demand, upstream deliveries, cancels.
struct Scenario: Sendable, CustomStringConvertible {
  /// One thing the harness does.
  enum Step: Sendable, CustomStringConvertible {
    /// The subscriber requests more.
    case request(Subscribers.Demand)
    /// The sources send what they can, and complete once their script is exhausted, until
    /// nothing moves any more; then the harness checks that the pipeline did not stall.
    case pump
    /// The subscriber cancels.
    case cancel
    /// The latest live source completes before its script is exhausted.
    case completeSourceEarly(failing: Bool)

    var description: String {
      switch self {
      case .request(let demand): "request(\(demand.short))"
      case .pump: "pump"
      case .cancel: "cancel"
      case .completeSourceEarly(let failing):
        failing ? "upstream fails early" : "upstream finishes early"
      }
    }
  }

  var seed: UInt64
  var delivery: SourceDelivery
  var behaviour: ProbeBehaviour
  var steps: [Step]
  /// Sources keep subscribers that ended and send to them again at the end (misbehaving
  /// upstreams); leak checks are then skipped.
  var careless = false
  /// Scripts for the sources, in the order they are created (random when nil or too short).
  var scripts: [SourceScript]?

  var description: String {
    var text = "seed \(seed): \(delivery.rawValue) upstream; subscriber: \(behaviour); steps: "
    text += steps.map(\.description).joined(separator: ", ")
    if let scripts { text += "; scripts: \(scripts)" }
    if careless { text += "; careless upstream" }
    return text
  }

  /// A random scenario, reproducible from its seed.
  static func random(seed: UInt64) -> Scenario {
    var generator = SeededGenerator(seed: seed)
    var behaviour = ProbeBehaviour()
    behaviour.initialDemand = generator.pick([.none, .max(1), .max(1), .max(2), .unlimited])
    behaviour.demandAfterValue = (0..<3).map { _ in generator.pick([0, 0, 1, 1, 2]) }
    behaviour.mode = generator.pick(DemandMode.allCases)
    if generator.chance(0.15) { behaviour.cancelAtValue = generator.int(1...4) }
    behaviour.cancelInSubscription = generator.chance(0.04)
    behaviour.callsBackOnCompletion = generator.chance(0.3)
    behaviour.cancelsTwice = generator.chance(0.3)
    behaviour.misusesAfterEnd = generator.chance(0.3)
    var steps: [Step] = []
    for _ in 0..<generator.int(1...6) {
      switch generator.int(0...19) {
      case 0...6: steps.append(.request(generator.pick([.none, .max(1), .max(2), .unlimited])))
      case 7...15: steps.append(.pump)
      case 16, 17: steps.append(.cancel)
      default: steps.append(.completeSourceEarly(failing: generator.chance(0.5)))
      }
    }
    steps.append(.pump)
    return Scenario(
      seed: seed, delivery: generator.pick(SourceDelivery.allCases), behaviour: behaviour,
      steps: steps)
  }
}

/// Performs a scenario's steps on a subscribed probe and the environment's sources.
struct ScenarioDriver<Input, Failure: Error> {
  let probe: Probe<Input, Failure>
  let environment: ConformanceEnvironment

  /// Requests the demand the probe set aside (`.deferred`), until it sets none aside.
  func settle() {
    while probe.flushDeferred() {}
  }

  /// Lets every source send what it can, and complete once its script is exhausted, until
  /// nothing moves any more (or the stream ended). Rounds are capped, for publishers that
  /// never stop producing (a timer on the clock).
  func pump() {
    var rounds = 0
    var mark = progressMark
    while !probe.hasEnded, rounds < 100 {
      rounds += 1
      _ = probe.flushDeferred()
      var index = 0
      while index < environment.sources.count, !probe.hasEnded {
        let source = environment.sources[index]
        while !probe.hasEnded, source.sendNext() {
          _ = probe.flushDeferred()
        }
        if !probe.hasEnded { _ = source.completeIfExhausted() }
        index += 1
      }
      let newMark = progressMark
      if newMark == mark { break }
      mark = newMark
    }
  }

  /// What changes whenever anything moves: the subscriber's events and demand, and the
  /// sources' marks.
  private var progressMark: [Int] {
    [probe.events.count, probe.outstanding.max ?? -1, environment.sources.count]
      + environment.sources.map(\.progressMark)
  }

  func perform(_ step: Scenario.Step) {
    switch step {
    case .request(let demand):
      probe.request(demand)
      settle()
    case .pump:
      pump()
    case .cancel:
      probe.cancel()
    case .completeSourceEarly(let failing):
      environment.sources.last(where: \.isLive)?.completeEarly(failing: failing)
      settle()
    }
  }
}

/// Carries a value that is not `Sendable` to other threads, for stress tests whose threads
/// only use it in ways its own locks make safe.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
  // @unchecked Sendable: the stress harness shares the sources between threads; each source
  // guards its state with a lock, and each is driven by one thread only.
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Whether a stress round's driver must keep driving `source`: it is live, or not subscribed
/// yet; the clock, as long as any other source is (time must go on while values flow).
private func isActive(_ source: any DrivableSource, among all: [any DrivableSource]) -> Bool {
  func pending(_ source: any DrivableSource) -> Bool {
    source.isLive || (source.seesDemand && source.subscriptionStatuses.isEmpty)
  }
  guard source is ClockSource else { return pending(source) }
  return pending(source) || all.contains { !($0 is ClockSource) && pending($0) }
}

/// Runs the clocks' due work (first, so that a cancel forwarded on a clock reaches its
/// upstream before anything is sent), then lets every source send or complete, until a pass
/// changes nothing. Bounded: a timer on a clock may tick for ever without changing anything
/// the subscriber sees.
private func pumpUntilQuiet<Output, Failure>(
  _ environment: ConformanceEnvironment, recorder: StressRecorder<Output, Failure>
) {
  func mark() -> [Int] {
    environment.sources.map(\.progressMark)
      + [recorder.values.count, recorder.completionCount]
  }
  for _ in 0..<1_000 {
    let before = mark()
    var progress = false
    for source in environment.sources { source.settleAfterEnd() }
    for source in environment.sources {
      if source.sendNext() || source.completeIfExhausted() { progress = true }
    }
    if !progress && mark() == before { return }
  }
}

/// What one concurrent round of ``Harness/stress(seed:traits:build:)`` saw.
struct StressReport: Sendable {
  /// The rules broken.
  var problems: [String]
  /// How many values and completions arrived (to check that the round exercised something).
  var events: Int
}
