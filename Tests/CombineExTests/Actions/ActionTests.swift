import CombineEx
import CombineExTesting
import Testing

@Suite("Action")
struct ActionTests {
  // MARK: Running

  @Test("nothing runs until the applied publisher is subscribed")
  func nothingRunsBeforeSubscription() {
    let calls = RunCounter()
    let action = Action<Int, Int, Never> { input in
      calls.increment()
      return .just(input)
    }
    let applied = action.apply(1)
    #expect(calls.value == 0)
    #expect(!action.isExecuting.value)
    let recorder = applied.record()
    #expect(calls.value == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("each subscription to an applied publisher is a new run with the same input")
  func eachSubscriptionIsARun() {
    let (action, log) = controlledAction()
    let applied = action.apply(7)
    let first = applied.record()
    log.current.send(completion: .finished)
    let second = applied.record()
    log.current.send(completion: .finished)
    #expect(log.inputs == [7, 7])
    #expect(first.receivedCompletion == .finished)
    #expect(second.receivedCompletion == .finished)
  }

  @Test("a run's values reach the applying subscriber and values")
  func valuesReachSubscriberAndValues() {
    let (action, log) = controlledAction()
    let values = action.values.record()
    let recorder = action.apply(1).record()
    log.current.send(10)
    log.current.send(20)
    #expect(recorder.values == [10, 20])
    #expect(values.values == [10, 20])
  }

  @Test("a run's failure reaches the subscriber as publisherFailure and errors as the error")
  func failureReachesSubscriberAndErrors() {
    let (action, log) = controlledAction()
    let errors = action.errors.record()
    let completed = action.completed.record()
    let recorder = action.apply(1).record()
    log.current.send(completion: .failure(ColdTestError(4)))
    #expect(recorder.receivedCompletion == .failure(.publisherFailure(ColdTestError(4))))
    #expect(errors.values == [ColdTestError(4)])
    #expect(completed.values.isEmpty)
  }

  @Test("a run that finishes emits completed, not errors")
  func finishingEmitsCompleted() {
    let (action, log) = controlledAction()
    let errors = action.errors.record()
    let completed = action.completed.record()
    let recorder = action.apply(1).record()
    log.current.send(completion: .finished)
    #expect(recorder.receivedCompletion == .finished)
    #expect(completed.values.count == 1)
    #expect(errors.values.isEmpty)
  }

  @Test("demand passes through a run: .max(1), then more; values sees only delivered values")
  func demandPassesThrough() {
    let action = Action<Void, Int, Never> { AnyDeferredPublisher { [1, 2, 3].publisher } }
    let values = action.values.record()
    let recorder = action.apply().record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    #expect(values.values == [1])
    #expect(action.isExecuting.value)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    recorder.request(.unlimited)
    #expect(recorder.values == [1, 2, 3])
    #expect(values.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
    #expect(!action.isExecuting.value)
  }

  @Test("a subscription with .none demand starts the run and waits for demand")
  func noDemandStartsRun() {
    let action = Action<Void, Int, Never> { .just(5) }
    let recorder = action.apply().record(initialDemand: .none)
    #expect(action.isExecuting.value)
    #expect(recorder.values == [])
    recorder.request(.max(1))
    #expect(recorder.values == [5])
    #expect(!action.isExecuting.value)
  }

  // MARK: The gate

  @Test("while a run is in flight, a subscription fails at once with .disabled")
  func parallelRunRefused() {
    let (action, log) = controlledAction()
    let errors = action.errors.record()
    let disabled = action.disabledErrors.record()
    let running = action.apply(1).record()
    let refused = action.apply(2).record(initialDemand: .none)
    #expect(refused.receivedCompletion == .failure(.disabled))
    #expect(log.inputs == [1])
    #expect(disabled.values.count == 1)
    #expect(errors.values.isEmpty)
    log.current.send(3)
    #expect(running.values == [3])
    #expect(refused.values == [])
  }

  @Test("a disabled action refuses every subscription without calling its closure")
  func disabledActionRefuses() {
    let (action, log) = controlledAction(enabledIf: Property(value: false))
    let errors = action.errors.record()
    let disabled = action.disabledErrors.record()
    let first = action.apply(1).record()
    let second = action.apply(2).record()
    #expect(first.receivedCompletion == .failure(.disabled))
    #expect(second.receivedCompletion == .failure(.disabled))
    #expect(log.inputs == [])
    #expect(disabled.values.count == 2)
    #expect(errors.values.isEmpty)
    #expect(!action.isExecuting.value)
  }

  @Test("enabledIf is checked at subscription, not at apply")
  func enabledIfCheckedAtSubscription() {
    let enabled = MutableProperty(false)
    let (action, log) = controlledAction(enabledIf: Property(enabled))
    let applied = action.apply(1)
    enabled.value = true
    let recorder = applied.record()
    #expect(log.inputs == [1])
    #expect(recorder.receivedCompletion == nil)
    enabled.value = false
    log.current.send(completion: .finished)
    #expect(recorder.receivedCompletion == .finished)
    #expect(applied.record().receivedCompletion == .failure(.disabled))
  }

  @Test("a run applied from inside the action's own closure is refused")
  func reentrantApplyFromClosureRefused() {
    var nested: TestSubscriber<Int, ActionError<Never>>?
    var action: Action<Int, Int, Never>!
    action = Action<Int, Int, Never> { input in
      if input == 1 { nested = action.apply(2).record() }
      return .just(input)
    }
    let outer = action.apply(1).record()
    #expect(outer.values == [1])
    #expect(nested?.receivedCompletion == .failure(.disabled))
    action = nil  // the closure captured the variable
  }

  // MARK: State

  @Test("isExecuting is true during a run, false after it, and deduplicated")
  func isExecutingTransitions() {
    let (action, log) = controlledAction()
    let executing = action.isExecuting.record()
    let running = action.apply(1).record()
    #expect(action.isExecuting.value)
    _ = action.apply(2).record()  // refused: no change
    log.current.send(completion: .finished)
    #expect(!action.isExecuting.value)
    #expect(executing.values == [false, true, false])
    withExtendedLifetime(running) {}
  }

  @Test("isEnabled is enabledIf && !isExecuting, deduplicated")
  func isEnabledTransitions() {
    let enabledIf = MutableProperty(true)
    let (action, log) = controlledAction(enabledIf: Property(enabledIf))
    let enabled = action.isEnabled.record()
    enabledIf.value = true  // no change
    let running = action.apply(1).record()
    #expect(!action.isEnabled.value)
    enabledIf.value = false  // still disabled: no change
    log.current.send(completion: .finished)
    #expect(!action.isEnabled.value)
    enabledIf.value = true
    #expect(action.isEnabled.value)
    #expect(enabled.values == [true, false, true])
    withExtendedLifetime(running) {}
  }

  @Test("isExecuting is false before the applying subscriber sees the completion")
  func isExecutingFalseBeforeCompletion() {
    let (action, log) = controlledAction()
    var events: [String] = []
    let executing = action.isExecuting.sink { events.append("isExecuting \($0)") }
    let completed = action.completed.sink { events.append("completed") }
    let run = action.apply(1).sink(
      receiveCompletion: { _ in
        events.append("completion, isExecuting.value \(action.isExecuting.value)")
      },
      receiveValue: { _ in })
    log.current.send(completion: .finished)
    #expect(
      events == [
        "isExecuting false", "isExecuting true", "isExecuting false", "completed",
        "completion, isExecuting.value false",
      ])
    withExtendedLifetime((executing, completed, run)) {}
  }

  @Test("the applying subscriber may apply again from its completion handler")
  func reapplyFromCompletionHandler() {
    let (action, log) = controlledAction()
    var second: TestSubscriber<Int, ActionError<ColdTestError>>?
    let first = action.apply(1).sink(
      receiveCompletion: { _ in second = action.apply(2).record() },
      receiveValue: { _ in })
    log.current.send(completion: .failure(ColdTestError(1)))
    #expect(log.inputs == [1, 2])
    #expect(second?.receivedCompletion == nil)
    #expect(action.isExecuting.value)
    log.current.send(9)
    #expect(second?.values == [9])
    withExtendedLifetime(first) {}
  }

  @Test("a subscriber of errors may apply again at once")
  func reapplyFromErrors() {
    let (action, log) = controlledAction()
    var retries: [TestSubscriber<Int, ActionError<ColdTestError>>] = []
    let errors = action.errors.sink { _ in
      if retries.isEmpty { retries.append(action.apply(2).record()) }
    }
    let first = action.apply(1).record()
    log.current.send(completion: .failure(ColdTestError(1)))
    #expect(log.inputs == [1, 2])
    #expect(retries.first?.receivedCompletion == nil)
    #expect(first.receivedCompletion == .failure(.publisherFailure(ColdTestError(1))))
    withExtendedLifetime(errors) {}
  }

  @Test("a run applied from an isExecuting subscriber is published after the current change")
  func applyFromIsExecutingSubscriber() {
    let action = Action<Void, Int, Never> { .just(1) }
    var applied = false
    var runs: [TestSubscriber<Int, ActionError<Never>>] = []
    var seen: [Bool] = []
    let executing = action.isExecuting.sink { value in
      seen.append(value)
      if !value && seen.count > 1 && !applied {
        applied = true
        runs.append(action.apply().record())
      }
    }
    let first = action.apply().record()
    #expect(first.values == [1])
    #expect(runs.first?.values == [1])
    #expect(seen == [false, true, false, true, false])
    withExtendedLifetime(executing) {}
  }

  @Test("cancelling a run resets isExecuting, reaches the run and publishes no error")
  func cancelResetsExecution() {
    var cancels = 0
    let subject = PassthroughSubject<Int, ColdTestError>()
    let action = Action<Void, Int, ColdTestError> {
      AnyDeferredPublisher { subject.handleEvents(receiveCancel: { cancels += 1 }) }
    }
    let errors = action.errors.record()
    let completed = action.completed.record()
    let executing = action.isExecuting.record()
    let recorder = action.apply().record()
    subject.send(1)
    recorder.cancel()
    subject.send(2)
    #expect(cancels == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
    #expect(!action.isExecuting.value)
    #expect(executing.values == [false, true, false])
    #expect(errors.values.isEmpty)
    #expect(completed.values.isEmpty)
    #expect(action.apply().record().receivedCompletion == nil)  // a new run starts
  }

  // MARK: applyIfPossible and Void input

  @Test("applyIfPossible: a refused run finishes empty and disabledErrors emits")
  func applyIfPossibleRefusedFinishes() {
    let (action, _) = controlledAction()
    let disabled = action.disabledErrors.record()
    let running = action.applyIfPossible(1).record()
    let refused = action.applyIfPossible(2).record()
    #expect(refused.values == [])
    #expect(refused.receivedCompletion == .finished)
    #expect(running.receivedCompletion == nil)
    #expect(disabled.values.count == 1)
  }

  @Test("applyIfPossible: a run's values and failure pass through")
  func applyIfPossibleRuns() {
    let (action, log) = controlledAction()
    let recorder = action.applyIfPossible(1).record()
    log.current.send(3)
    log.current.send(completion: .failure(ColdTestError(2)))
    #expect(recorder.values == [3])
    #expect(recorder.receivedCompletion == .failure(ColdTestError(2)))
  }

  @Test("apply() and applyIfPossible() run an action without input")
  func voidInput() {
    let calls = RunCounter()
    let action = Action<Void, String, Never> {
      calls.increment()
      return .just("done")
    }
    #expect(action.apply().record().values == ["done"])
    #expect(action.applyIfPossible().record().values == ["done"])
    #expect(calls.value == 2)
  }

  @Test("ActionError is Equatable when its failure is")
  func actionErrorEquatable() {
    let failure = ActionError<ColdTestError>.publisherFailure(ColdTestError(1))
    #expect(failure == .publisherFailure(ColdTestError(1)))
    #expect(failure != .publisherFailure(ColdTestError(2)))
    #expect(failure != .disabled)
    #expect(ActionError<ColdTestError>.disabled == .disabled)
  }

  // MARK: Lifetimes

  @Test("an action is freed when its users are")
  func actionIsFreed() {
    weak var weakAction: Action<Int, Int, ColdTestError>?
    do {
      let (action, log) = controlledAction()
      weakAction = action
      let applied = action.apply(1)
      let recorder = applied.record()
      let values = action.values.record()
      log.current.send(completion: .finished)
      withExtendedLifetime((recorder, values)) {}
    }
    #expect(weakAction == nil)
  }

  @Test("a run in flight keeps its action alive until it ends")
  func runKeepsActionAlive() {
    weak var weakAction: Action<Int, Int, ColdTestError>?
    var recorder: TestSubscriber<Int, ActionError<ColdTestError>>?
    let log: RunLog
    do {
      let controlled = controlledAction()
      weakAction = controlled.action
      log = controlled.log
      recorder = controlled.action.apply(1).record()
    }
    #expect(weakAction != nil)
    log.current.send(completion: .finished)
    #expect(weakAction == nil)
    #expect(recorder?.receivedCompletion == .finished)
  }

  @Test("a publisher returned by apply keeps its action alive until it is dropped")
  func appliedPublisherKeepsActionAlive() {
    weak var weakAction: Action<Int, Int, ColdTestError>?
    var applied: AnyDeferredPublisher<Int, ActionError<ColdTestError>>?
    do {
      let (action, _) = controlledAction()
      weakAction = action
      applied = action.apply(1)
    }
    #expect(weakAction != nil && applied != nil)
    applied = nil
    #expect(weakAction == nil)
  }

  @Test("a cancelled run releases its action")
  func cancelledRunReleasesAction() {
    weak var weakAction: Action<Int, Int, ColdTestError>?
    var recorder: TestSubscriber<Int, ActionError<ColdTestError>>?
    do {
      let (action, _) = controlledAction()
      weakAction = action
      recorder = action.apply(1).record()
    }
    #expect(weakAction != nil)
    recorder?.cancel()
    #expect(weakAction == nil)
  }

  @Test("isExecuting and isEnabled do not keep the action alive, and still read their state")
  func propertiesDoNotRetainAction() {
    weak var weakAction: Action<Int, Int, ColdTestError>?
    let isExecuting: Property<Bool>
    let isEnabled: Property<Bool>
    do {
      let (action, _) = controlledAction()
      weakAction = action
      isExecuting = action.isExecuting
      isEnabled = action.isEnabled
    }
    #expect(weakAction == nil)
    #expect(!isExecuting.value)
    #expect(isEnabled.value)
  }

  @Test("when the action is freed, values, errors, disabledErrors and completed finish")
  func freedActionFinishesEventPublishers() {
    var action: Action<Int, Int, ColdTestError>? = controlledAction().action
    let values = action!.values.record()
    let errors = action!.errors.record()
    let disabled = action!.disabledErrors.record()
    let completed = action!.completed.record()
    action = nil
    #expect(values.receivedCompletion == .finished)
    #expect(errors.receivedCompletion == .finished)
    #expect(disabled.receivedCompletion == .finished)
    #expect(completed.receivedCompletion == .finished)
  }

  @Test("an action following enabledIf is freed, and stops following it")
  func actionFollowingEnabledIfIsFreed() {
    weak var weakAction: Action<Int, Int, ColdTestError>?
    let enabledIf = MutableProperty(true)
    do {
      let (action, _) = controlledAction(enabledIf: Property(enabledIf))
      weakAction = action
    }
    #expect(weakAction == nil)
    enabledIf.value = false
  }
}
