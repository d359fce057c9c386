import CombineEx
import CombineExTesting
import Dispatch
import Observation
import Testing

extension MainQueueTests {
  @Suite("ActionTrigger and UIAction")
  struct ActionTriggerTests {
    @Test("isExecuting and isEnabled mirror the action's, on the main queue")
    func mirrorsState() async {
      let (action, log) = controlledAction()
      let trigger = await MainActor.run { ActionTrigger(action) }
      let before = await MainActor.run { (trigger.isExecuting.value, trigger.isEnabled.value) }
      #expect(before == (false, true))
      let recorder = action.apply(1).record()
      await MainQueue.drain()
      let during = await MainActor.run { (trigger.isExecuting.value, trigger.isEnabled.value) }
      #expect(during == (true, false))
      log.current.send(completion: .finished)
      await MainQueue.drain()
      let after = await MainActor.run { (trigger.isExecuting.value, trigger.isEnabled.value) }
      #expect(after == (false, true))
      _ = recorder
    }

    @Test("isEnabled follows enabledIf")
    func followsEnabledIf() async {
      let enabled = MutableProperty(true)
      let action = Action<Int, Int, Never>(enabledIf: Property(enabled)) { .just($0) }
      let trigger = await MainActor.run { ActionTrigger(action) }
      await MainActor.run { enabled.value = false }
      #expect(await trigger.isEnabled.value == false)
    }

    @Test("withObservationTracking sees isExecuting change")
    func observable() async {
      let (action, log) = controlledAction()
      let changes = EventLog()
      let trigger = await MainActor.run { () -> ActionTrigger<Int> in
        let trigger = ActionTrigger(action)
        withObservationTracking {
          _ = trigger.isExecuting.value
        } onChange: {
          changes.append("changed")
        }
        return trigger
      }
      let recorder = await MainActor.run { action.apply(1).record() }
      #expect(changes.values == ["changed"])
      log.current.send(completion: .finished)
      _ = (trigger, recorder)
    }

    @Test("apply and applyAnonymous publish () per value and never fail")
    func applyAnonymous() async {
      let action = Action<Int, Int, ColdTestError> { input in
        input < 0 ? .fail(ColdTestError()) : .just(input)
      }
      let (values, failed) = await MainActor.run { () -> (Int, Subscribers.Completion<Never>?) in
        let trigger = ActionTrigger(action)
        let values = trigger.apply(1).record().values.count
        let failed = trigger.applyAnonymous(-1).record().receivedCompletion
        return (values, failed)
      }
      #expect(values == 1)
      #expect(failed == .finished)
    }

    @Test("a refused run finishes empty, and the action's disabledErrors emits")
    func refusedRunFinishes() async {
      let (action, _) = controlledAction()
      let refused = action.disabledErrors.record()
      let completion = await MainActor.run { () -> Subscribers.Completion<Never>? in
        let trigger = ActionTrigger(action)
        let running = trigger.apply(1).record()
        defer { running.cancel() }
        return trigger.apply(2).record().receivedCompletion
      }
      #expect(completion == .finished)
      #expect(refused.values.count == 1)
    }

    @Test("fire runs the action without a cancellable, and the run lasts")
    func fire() async {
      let (action, log) = controlledAction()
      let values = action.values.record()
      let trigger = await MainActor.run { () -> ActionTrigger<Int> in
        let trigger = ActionTrigger(action)
        trigger.fire(3)
        return trigger
      }
      #expect(log.inputs == [3])
      log.current.send(30)
      #expect(values.values == [30])
      _ = trigger
    }

    @Test("fire() and apply() for a trigger without input")
    func voidInput() async {
      let runs = RunCounter()
      let action = Action<Void, Int, Never> { .just(runs.increment()) }
      await MainActor.run {
        let trigger = ActionTrigger(action)
        trigger.fire()
        #expect(trigger.apply().record().values.count == 1)
      }
      #expect(runs.value == 2)
    }

    @Test("ActionTrigger.immediate runs its block on the main queue")
    func immediate() async {
      let log = EventLog()
      await MainActor.run {
        let trigger = ActionTrigger<String>.immediate {
          log.append("\($0) on main: \(MainQueue.isCurrent)")
        }
        trigger.fire("tap")
        _ = trigger
      }
      await MainQueue.drain()
      #expect(log.values == ["tap on main: true"])
    }

    @Test("asActionTrigger: an action, a trigger, a publisher and a future convert")
    func convertible() async {
      let action = Action<Void, Int, Never> { .just(1) }
      let runs = RunCounter()
      let publisher = AnyDeferredPublisher<Int, Never> { Just(runs.increment()) }
      let future = AnyDeferredFuture<Int, Never> { promise in promise(.success(runs.increment())) }
      await MainActor.run {
        let trigger = action.asActionTrigger
        #expect(trigger.asActionTrigger === trigger)
        #expect(trigger.apply().record().values.count == 1)
        #expect(publisher.asActionTrigger.apply().record().values.count == 1)
        #expect(future.asActionTrigger.apply().record().values.count == 1)
      }
      #expect(runs.value == 2)
    }

    @Test("a trigger keeps its action alive; dropping the trigger frees both")
    func lifetime() async {
      let freed = await MainActor.run { () -> (actionWhileTriggerLives: Bool, both: Bool) in
        weak var weakAction: Action<Int, Int, Never>?
        weak var weakTrigger: ActionTrigger<Int>?
        var trigger: ActionTrigger<Int>?
        do {
          let action = Action<Int, Int, Never> { .just($0) }
          weakAction = action
          trigger = ActionTrigger(action)
          weakTrigger = trigger
        }
        let actionFreedEarly = weakAction == nil
        trigger = nil
        return (actionFreedEarly, weakAction == nil && weakTrigger == nil)
      }
      #expect(freed.actionWhileTriggerLives == false)
      #expect(freed.both)
    }

    @Test("UIAction mirrors isExecuting and runs anonymously")
    func uiAction() async {
      let (action, log) = controlledAction()
      let uiAction = await MainActor.run { action.asUIAction }
      let recorder = await MainActor.run { uiAction.applyAnonymous(1).record() }
      await MainQueue.drain()
      #expect(await uiAction.isExecuting.value)
      log.current.send(completion: .finished)
      await MainQueue.drain()
      #expect(await !uiAction.isExecuting.value)
      #expect(recorder.receivedCompletion == .finished)
      let log2 = EventLog()
      await MainActor.run {
        _ = UIAction<String>.immediate { log2.append($0) }.applyAnonymous("x").record()
      }
      #expect(log2.values == ["x"])
    }
  }
}
