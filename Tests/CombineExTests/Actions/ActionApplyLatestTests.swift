import CombineEx
import CombineExTesting
import Foundation
import Testing

/// A search server slower than the user's typing pauses: each search answers `delay` after it
/// starts, on `scheduler`, and counts the searches started and cancelled.
final class SlowSearchServer: @unchecked Sendable {
  // @unchecked Sendable: the counters are locked boxes; the scheduler is thread-safe.
  let scheduler: TestSchedulerOf<DispatchQueue>
  let delay: DispatchQueue.SchedulerTimeType.Stride
  let started = LockedBox<[String]>([])
  let cancelled = LockedBox<[String]>([])

  init(scheduler: TestSchedulerOf<DispatchQueue>, delay: DispatchQueue.SchedulerTimeType.Stride) {
    self.scheduler = scheduler
    self.delay = delay
  }

  func search(_ query: String) -> AnyDeferredPublisher<[String], Never> {
    AnyDeferredPublisher { [self] in
      started.withLock { $0.append(query) }
      return Just(["\(query) 1", "\(query) 2"])
        .delay(for: delay, scheduler: scheduler)
        .handleEvents(receiveCancel: { [cancelled] in cancelled.withLock { $0.append(query) } })
    }
  }
}

/// A run's publisher that ignores cancel: it delivers whatever the test tells it to, as a
/// publisher whose events race its cancel on another thread can.
final class StubbornRun: Publisher, @unchecked Sendable {
  // @unchecked Sendable: driven from the test's thread only.
  typealias Output = Int
  typealias Failure = ColdTestError

  private var subscriber: AnySubscriber<Int, ColdTestError>?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == ColdTestError {
    self.subscriber = AnySubscriber(subscriber)
    subscriber.receive(subscription: Subscriptions.empty)
  }

  func send(_ value: Int) { _ = subscriber?.receive(value) }

  func finish(_ completion: Subscribers.Completion<ColdTestError>) {
    subscriber?.receive(completion: completion)
  }
}

@Suite("action.applyLatest(from:)")
struct ActionApplyLatestTests {
  // MARK: Search as you type

  @Test(
    "search as you type with a slow server: the last query's results are shown, nothing is refused, isExecuting does not flicker"
  )
  func searchAsYouTypeShowsLatestResults() {
    let scheduler = DispatchQueue.test
    let server = SlowSearchServer(scheduler: scheduler, delay: .seconds(1))
    let search = Action<String, [String], Never> { server.search($0) }
    let results = search.values.record()
    let refused = search.disabledErrors.record()
    let completed = search.completed.record()
    let executing = search.isExecuting.record()
    let enabled = search.isEnabled.record()
    let query = MutableProperty("")

    search.applyLatest(
      from: query.dropFirst().debounce(for: .milliseconds(300), scheduler: scheduler))
    query.value = "s"
    scheduler.advance(by: .milliseconds(300))  // "s" searched; it would answer at +1.3 s
    query.value = "sw"
    scheduler.advance(by: .milliseconds(300))  // "sw" searched: "s" is cancelled
    query.value = "swift"
    scheduler.advance(by: .milliseconds(300))  // "swift" searched: "sw" is cancelled
    scheduler.advance(by: .milliseconds(999))
    #expect(results.values.isEmpty)
    #expect(search.isExecuting.value)
    scheduler.advance(by: .milliseconds(1))  // the answer for "swift"

    #expect(results.values == [["swift 1", "swift 2"]])
    #expect(refused.values.isEmpty)
    #expect(completed.values.count == 1)
    #expect(server.started.withLock { $0 } == ["s", "sw", "swift"])
    #expect(server.cancelled.withLock { $0 } == ["s", "sw"])
    #expect(executing.values == [false, true, false])
    #expect(enabled.values == [true, false, true])
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test(
    "action <~ publisher keeps refusing: with the same typing it shows the first query's results")
  func bindingOperatorKeepsRefusing() {
    let scheduler = DispatchQueue.test
    let server = SlowSearchServer(scheduler: scheduler, delay: .seconds(1))
    let search = Action<String, [String], Never> { server.search($0) }
    let results = search.values.record()
    let refused = search.disabledErrors.record()
    let query = MutableProperty("")

    search <~ query.dropFirst().debounce(for: .milliseconds(300), scheduler: scheduler)
    query.value = "s"
    scheduler.advance(by: .milliseconds(300))
    query.value = "sw"
    scheduler.advance(by: .milliseconds(300))
    query.value = "swift"
    scheduler.advance(by: .milliseconds(1_300))

    #expect(results.values == [["s 1", "s 2"]])
    #expect(refused.values.count == 2)
    #expect(server.started.withLock { $0 } == ["s"])
  }

  // MARK: The hand-over

  @Test(
    "a new value cancels the run in flight; the cancelled run emits nothing on values, errors or completed"
  )
  func cancelledRunIsSilent() {
    let (action, log) = controlledAction()
    let values = action.values.record()
    let errors = action.errors.record()
    let completed = action.completed.record()
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    source.send(1)
    let first = log.current
    first.send(10)
    source.send(2)
    let second = log.current
    // The first run's publisher was cancelled: a late value or completion reaches nobody.
    first.send(11)
    first.send(completion: .failure(ColdTestError(1)))
    second.send(20)
    second.send(completion: .failure(ColdTestError(2)))
    #expect(log.inputs == [1, 2])
    #expect(values.values == [10, 20])
    #expect(errors.values == [ColdTestError(2)])
    #expect(completed.values.isEmpty)
    #expect(!action.isExecuting.value)
  }

  @Test("a replaced run whose publisher still delivers after its cancel (a race) publishes nothing")
  func lateEventsOfReplacedRunAreDropped() {
    let runs = LockedBox<[StubbornRun]>([])
    let action = Action<Int, Int, ColdTestError> { _ in
      let run = StubbornRun()
      runs.withLock { $0.append(run) }
      return AnyDeferredPublisher { run }
    }
    let values = action.values.record()
    let errors = action.errors.record()
    let completed = action.completed.record()
    let executing = action.isExecuting.record()
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    source.send(1)
    source.send(2)
    let (first, second) = runs.withLock { ($0[0], $0[1]) }
    second.send(20)
    // What the first run's publisher sends after the hand-over, as one racing its cancel on
    // another thread would:
    first.send(10)
    first.finish(.failure(ColdTestError(1)))
    #expect(values.values == [20])
    #expect(errors.values.isEmpty)
    #expect(executing.values == [false, true])
    second.finish(.finished)
    #expect(completed.values.count == 1)
    #expect(executing.values == [false, true, false])
  }

  @Test("the hand-over publishes nothing on isExecuting and isEnabled")
  func handOverDoesNotFlicker() {
    let (action, log) = controlledAction()
    let executing = action.isExecuting.record()
    let enabled = action.isEnabled.record()
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    for input in 1...5 { source.send(input) }
    #expect(executing.values == [false, true])
    #expect(enabled.values == [true, false])
    log.current.send(completion: .finished)
    #expect(executing.values == [false, true, false])
    #expect(enabled.values == [true, false, true])
  }

  @Test("a run that ended is followed by a fresh start, which publishes isExecuting again")
  func valueAfterTheRunEndedStartsAfresh() {
    let (action, log) = controlledAction()
    let executing = action.isExecuting.record()
    let completed = action.completed.record()
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    source.send(1)
    log.current.send(completion: .finished)
    source.send(2)
    #expect(log.inputs == [1, 2])
    #expect(completed.values.count == 1)
    #expect(executing.values == [false, true, false, true])
  }

  // MARK: Refusals

  @Test("with enabledIf false a value goes to disabledErrors and the run in flight goes on")
  func disabledValueIsRefused() {
    let enabledIf = MutableProperty(true)
    let (action, log) = controlledAction(enabledIf: Property(enabledIf))
    let values = action.values.record()
    let refused = action.disabledErrors.record()
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    source.send(1)
    enabledIf.value = false
    source.send(2)
    #expect(log.inputs == [1])
    #expect(refused.values.count == 1)
    log.current.send(5)
    #expect(values.values == [5])
    #expect(action.isExecuting.value)
    enabledIf.value = true
    source.send(3)
    #expect(log.inputs == [1, 3])
  }

  @Test("with enabledIf false and no run in flight a value goes to disabledErrors")
  func disabledIdleValueIsRefused() {
    let (action, log) = controlledAction(enabledIf: Property(value: false))
    let refused = action.disabledErrors.record()
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    source.send(1)
    #expect(log.inputs.isEmpty)
    #expect(refused.values.count == 1)
    #expect(!action.isExecuting.value)
  }

  @Test("a run that apply started is never cancelled: the binding's value is refused")
  func appliedRunIsNotCancelled() {
    let (action, log) = controlledAction()
    let refused = action.disabledErrors.record()
    let applied = action.apply(1).record()
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    source.send(2)
    #expect(log.inputs == [1])
    #expect(refused.values.count == 1)
    log.current.send(7)
    log.current.send(completion: .finished)
    #expect(applied.values == [7])
    #expect(applied.receivedCompletion == .finished)
  }

  @Test("a binding never cancels another binding's run")
  func otherBindingsRunIsNotCancelled() {
    let (action, log) = controlledAction()
    let refused = action.disabledErrors.record()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    action.applyLatest(from: first)
    action.applyLatest(from: second)
    first.send(1)
    second.send(2)
    #expect(log.inputs == [1])
    #expect(refused.values.count == 1)
    first.send(3)
    #expect(log.inputs == [1, 3])
  }

  // MARK: Re-entrancy

  @Test(
    "a value sent from a subscriber of values replaces the run that delivered it, after the delivery"
  )
  func valueFromValuesSubscriber() {
    let (action, log) = controlledAction()
    let source = PassthroughSubject<Int, Never>()
    let seen = LockedBox<[Int]>([])
    let relay = action.values.sink { value in
      seen.withLock { $0.append(value) }
      if value == 10 { source.send(2) }
    }
    action.applyLatest(from: source)
    source.send(1)
    log.current.send(10)  // the subscriber sends 2: the run for 1 is replaced
    #expect(log.inputs == [1, 2])
    log.runs[0].send(11)  // cancelled: not published
    log.current.send(20)
    #expect(seen.withLock { $0 } == [10, 20])
    withExtendedLifetime(relay) {}
  }

  @Test(
    "a value sent from a subscriber of isExecuting while a run starts replaces it before it runs")
  func valueFromIsExecutingSubscriber() {
    let (action, log) = controlledAction()
    let source = PassthroughSubject<Int, Never>()
    let relay = action.isExecuting.dropFirst().sink { isExecuting in
      if isExecuting { source.send(2) }
    }
    let executing = action.isExecuting.record()
    action.applyLatest(from: source)
    source.send(1)
    // The run for 1 was handed over before its publisher was made.
    #expect(log.inputs == [2])
    #expect(executing.values == [false, true])
    log.current.send(completion: .finished)
    #expect(executing.values == [false, true, false])
    withExtendedLifetime(relay) {}
  }

  // MARK: Lifetime

  @Test("the source ending: the last run goes on to its end, then the binding is released")
  func sourceEndingLetsTheLastRunFinish() {
    weak var weakSource: PassthroughSubject<Int, Never>?
    let (action, log) = controlledAction()
    let values = action.values.record()
    let completed = action.completed.record()
    do {
      let source = PassthroughSubject<Int, Never>()
      weakSource = source
      action.applyLatest(from: source)
      source.send(1)
      source.send(2)
      source.send(completion: .finished)
    }
    #expect(weakSource == nil)
    log.current.send(9)
    log.current.send(completion: .finished)
    #expect(values.values == [9])
    #expect(completed.values.count == 1)
    #expect(!action.isExecuting.value)
  }

  @Test("a failing source ends the binding")
  func failingSourceEndsTheBinding() {
    let action = Action<Int, Int, Never> { .just($0) }
    let values = action.values.record()
    let source = PassthroughSubject<Int, ColdTestError>()
    action.applyLatest(from: source)
    source.send(1)
    source.send(completion: .failure(ColdTestError()))
    source.send(2)
    #expect(values.values == [1])
  }

  @Test(
    "the action freed mid-run: the run and the source are cancelled, isExecuting becomes false, everything is released"
  )
  func actionFreedMidRun() {
    weak var weakAction: Action<Int, Int, Never>?
    weak var weakSource: PassthroughSubject<Int, Never>?
    weak var weakRun: PassthroughSubject<Int, Never>?
    let sourceCancels = RunCounter()
    let runCancels = RunCounter()
    var executing: TestSubscriber<Bool, Never>?
    var values: TestSubscriber<Int, Never>?
    var completed: TestSubscriber<Void, Never>?
    do {
      let source = PassthroughSubject<Int, Never>()
      weakSource = source
      let run = PassthroughSubject<Int, Never>()
      weakRun = run
      let action = Action<Int, Int, Never> { _ in
        AnyDeferredPublisher { run.handleEvents(receiveCancel: { runCancels.increment() }) }
      }
      weakAction = action
      executing = action.isExecuting.record()
      values = action.values.record()
      completed = action.completed.record()
      action.applyLatest(from: source.handleEvents(receiveCancel: { sourceCancels.increment() }))
      source.send(1)
      #expect(action.isExecuting.value)
    }
    #expect(weakAction == nil)
    #expect(sourceCancels.value == 1)
    #expect(runCancels.value == 1)
    #expect(weakSource == nil)
    #expect(weakRun == nil)
    #expect(executing?.values == [false, true, false])
    #expect(values?.receivedCompletion == .finished)
    #expect(completed?.values.isEmpty == true)
  }

  @Test("neither the binding nor a run in flight keeps the action alive")
  func doesNotRetainAction() {
    weak var weakAction: Action<Int, Int, ColdTestError>?
    let source = PassthroughSubject<Int, Never>()
    var log: RunLog?
    do {
      let (action, runs) = controlledAction()
      weakAction = action
      log = runs
      action.applyLatest(from: source)
      source.send(1)
    }
    #expect(weakAction == nil)
    // The freed action's run was cancelled: its publisher has no subscriber left.
    log?.current.send(1)
    source.send(2)
    #expect(log?.inputs == [1])
  }

  @Test("a value delivered to values is not kept by the binding")
  func deliveredValueIsReleased() {
    final class Token: Sendable {}
    weak var weakToken: Token?
    let run = PassthroughSubject<Token, Never>()
    let action = Action<Int, Token, Never> { _ in AnyDeferredPublisher { run } }
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    source.send(1)
    do {
      let token = Token()
      weakToken = token
      run.send(token)
    }
    #expect(weakToken == nil)
  }

  @Test("the binding asks the source and each run for unlimited values")
  func unlimitedDemand() {
    let sourceDemands = LockedBox<[Subscribers.Demand]>([])
    let runDemands = LockedBox<[Subscribers.Demand]>([])
    let action = Action<Int, Int, Never> { input in
      AnyDeferredPublisher {
        Just(input).handleEvents(receiveRequest: { demand in
          runDemands.withLock { $0.append(demand) }
        })
      }
    }
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(
      from: source.handleEvents(receiveRequest: { demand in
        sourceDemands.withLock { $0.append(demand) }
      }))
    source.send(1)
    #expect(sourceDemands.withLock { $0 } == [.unlimited])
    #expect(runDemands.withLock { $0 } == [.unlimited])
  }

  // MARK: Threads

  @Test(
    "stress: inputs from 4 threads race the completion of runs on 4 others: no overlap, nothing refused, the last input's value is the last shown"
  )
  func stressInputsRaceCompletions() async {
    let runs = LockedBox<[(input: Int, subject: PassthroughSubject<Int, Never>)]>([])
    let live = LockedBox((current: 0, maximum: 0))
    let action = Action<Int, Int, Never> { input in
      let subject = PassthroughSubject<Int, Never>()
      runs.withLock { $0.append((input, subject)) }
      // A run is live from its subscription to its end, counted once: a completion racing
      // the cancel of the same run may run both handlers, as in Combine (`handleEvents` calls
      // `receiveCompletion` before its subscription records the end), and a cancel that comes
      // before the subscription runs `receiveCancel` for a run that never started.
      let phase = LockedBox(RunPhase.waiting)
      return AnyDeferredPublisher {
        subject.handleEvents(
          receiveSubscription: { _ in
            guard phase.withLock({ $0.start() }) else { return }
            live.withLock {
              $0.current += 1
              $0.maximum = max($0.maximum, $0.current)
            }
          },
          receiveCompletion: { _ in
            if phase.withLock({ $0.end() }) { live.withLock { $0.current -= 1 } }
          },
          receiveCancel: {
            if phase.withLock({ $0.end() }) { live.withLock { $0.current -= 1 } }
          })
      }
    }
    let values = action.values.record()
    let completed = action.completed.record()
    let refused = action.disabledErrors.record()
    let executing = action.isExecuting.record()
    let source = PassthroughSubject<Int, Never>()
    action.applyLatest(from: source)
    let senders = 4
    let inputsPerSender = 300
    await concurrentPerform(senders * 2) { thread in
      if thread < senders {
        for index in 0..<inputsPerSender { source.send(thread * inputsPerSender + index) }
      } else {
        for _ in 0..<inputsPerSender {
          guard let run = runs.withLock({ $0.last }) else { continue }
          run.subject.send(run.input)
          run.subject.send(completion: .finished)
        }
      }
    }
    // One more input, answered here: its value is the last one shown.
    source.send(-1)
    let last = runs.withLock { $0.last }
    #expect(last?.input == -1)
    last?.subject.send(-1)
    last?.subject.send(completion: .finished)

    let started = runs.withLock { $0.map(\.input) }
    #expect(started.count == senders * inputsPerSender + 1)
    #expect(refused.values.isEmpty)
    #expect(live.withLock { $0.maximum } == 1)
    #expect(live.withLock { $0.current } == 0)
    #expect(!action.isExecuting.value)
    // Values come in the order the runs started: never an older run's after a newer one's.
    // (Two completing threads may send the same run's value twice: equal neighbours are fine.)
    let order = Dictionary(uniqueKeysWithValues: started.enumerated().map { ($1, $0) })
    let shown = values.values.compactMap { order[$0] }
    #expect(shown.count == values.values.count)
    let backwards = zip(shown, shown.dropFirst()).filter { $0 > $1 }
    #expect(backwards.isEmpty, "runs' values out of order: \(backwards)")
    #expect(values.values.last == -1)
    // isExecuting alternates, and becomes false once per run that ended holding the gate.
    let published = executing.values
    #expect(zip(published, published.dropFirst()).allSatisfy { $0 != $1 })
    #expect(published.first == false && published.last == false)
    #expect(published.dropFirst().filter { !$0 }.count == completed.values.count)
  }

  @Test("stress: the action freed while inputs arrive from several threads releases everything")
  func stressActionFreedDuringInputs() async {
    for round in 0..<50 {
      weak var weakAction: Action<Int, Int, Never>?
      let source = PassthroughSubject<Int, Never>()
      let holder = LockedBox<Action<Int, Int, Never>?>(nil)
      let run = PassthroughSubject<Int, Never>()
      do {
        let action = Action<Int, Int, Never> { _ in AnyDeferredPublisher { run } }
        weakAction = action
        action.applyLatest(from: source)
        holder.withLock { $0 = action }
      }
      await concurrentPerform(4) { thread in
        if thread == 0 {
          holder.withLock { $0 = nil }
        } else {
          for input in 0..<100 { source.send(input) }
        }
      }
      #expect(weakAction == nil, "round \(round)")
      source.send(0)
    }
  }
}

/// Where a run of the stress test above is: ``start()`` and ``end()`` say whether the live
/// count moves.
private enum RunPhase {
  case waiting
  case live
  case ended

  /// Marks the run started; `false` if it already ended (cancelled before its subscription).
  mutating func start() -> Bool {
    guard self == .waiting else { return false }
    self = .live
    return true
  }

  /// Marks the run ended; `true` only the first time, and only if it had started.
  mutating func end() -> Bool {
    defer { self = .ended }
    return self == .live
  }
}
