import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("Action: just, immediate, immediateResult, withTask, withThrowingTask")
struct ActionStaticsTests {
  @Test("just: every run publishes the value, then finishes")
  func just() {
    let action: Action<Void, Int, Never> = .just(4)
    #expect(action.apply().record().events == [.subscription, .value(4), .completion(.finished)])
    #expect(action.apply().record().values == [4])
  }

  @Test("the statics honour enabledIf")
  func enabledIf() {
    let enabled = MutableProperty(false)
    let action: Action<Void, Int, Never> = .just(enabledIf: Property(enabled), 1)
    #expect(action.apply().record().receivedCompletion == .failure(.disabled))
    enabled.value = true
    #expect(action.apply().record().values == [1])
    let immediate: Action<Int, Int, Never> = .immediate(enabledIf: Property(value: false)) { $0 }
    #expect(immediate.apply(1).record().receivedCompletion == .failure(.disabled))
  }

  @Test("immediate: the block runs with the input at subscription, once per run")
  func immediate() {
    let calls = RunCounter()
    let action: Action<Int, String, Never> = .immediate { input in
      calls.increment()
      return "#\(input)"
    }
    let applied = action.apply(3)
    #expect(calls.value == 0)
    #expect(applied.record().values == ["#3"])
    #expect(calls.value == 1)
  }

  @Test("immediateResult: a success is the run's value, a failure its failure")
  func immediateResult() {
    let action: Action<Int, Int, ColdTestError> = .immediateResult { input in
      input >= 0 ? .success(input) : .failure(ColdTestError(input))
    }
    let errors = action.errors.record()
    #expect(action.apply(2).record().values == [2])
    #expect(
      action.apply(-1).record().receivedCompletion
        == .failure(.publisherFailure(ColdTestError(-1))))
    #expect(errors.values == [ColdTestError(-1)])
  }

  @Test("withTask: the task runs with the input and its value ends the run")
  func withTask() async {
    let action: Action<Int, Int, Never> = .withTask { input in input * 2 }
    let recorder = action.apply(21).record()
    #expect(await recorder.values(count: 1) == [42])
    #expect(await recorder.completion == .finished)
    #expect(!action.isExecuting.value)
  }

  @Test("withTask: cancelling the run cancels the task and ends the run")
  func withTaskCancel() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let action: Action<Void, Int, Never> = .withTask { _ in
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }
    let recorder = action.apply().record()
    await started.wait()
    #expect(action.isExecuting.value)
    recorder.cancel()
    await cancelled.wait()
    #expect(!action.isExecuting.value)
  }

  @Test("withThrowingTask: the typed error fails the run and reaches errors")
  func withThrowingTask() async {
    let action: Action<Int, Int, ColdTestError> = .withThrowingTask {
      (input) throws(ColdTestError) in
      if input < 0 { throw ColdTestError(input) }
      return input
    }
    let errors = action.errors.record()
    #expect(await action.apply(5).record().values(count: 1) == [5])
    #expect(
      await action.apply(-2).record().completion == .failure(.publisherFailure(ColdTestError(-2))))
    #expect(errors.values == [ColdTestError(-2)])
  }

  @Test("withThrowingTask(nonconformingErrorHandler:) converts other errors, keeps a Failure")
  func withThrowingTaskNonconforming() async {
    struct Other: Error {}
    let action: Action<Int, Int, ColdTestError> = .withThrowingTask(
      nonconformingErrorHandler: { _ in ColdTestError(100) },
      task: { input in
        if input == 0 { throw Other() }
        if input < 0 { throw ColdTestError(input) }
        return input
      })
    #expect(
      await action.apply(0).record().completion == .failure(.publisherFailure(ColdTestError(100))))
    #expect(
      await action.apply(-3).record().completion == .failure(.publisherFailure(ColdTestError(-3))))
    #expect(await action.apply(1).record().values(count: 1) == [1])
  }

  @Test("a static called on a typed Action infers the closure's types from the action")
  func typedStaticsInfer() {
    let double = Action<Int, Int, Never>.immediate { $0 * 2 }
    let checked = Action<Int, Int, ColdTestError>.immediateResult { input in
      if input < 0 { return .failure(ColdTestError(input)) }
      return .success(input)
    }
    let reset = Action<Void, Int, Never>.just(0)
    #expect(type(of: double) == Action<Int, Int, Never>.self)
    #expect(double.apply(4).record().values == [8])
    #expect(
      checked.apply(-1).record().receivedCompletion
        == .failure(.publisherFailure(ColdTestError(-1))))
    #expect(reset.apply().record().values == [0])
  }

  @Test("the generic statics make actions of their own types, whatever they are called on")
  func genericStaticsKeepTheirTypes() {
    let described = Action<Void, Void, Never>.immediate { (value: Int) in "\(value)" }
    #expect(type(of: described) == Action<Int, String, Never>.self)
    #expect(described.apply(3).record().values == ["3"])
    let just = Action<Int, Int, Never>.just("x")
    #expect(type(of: just) == Action<Void, String, Never>.self)
  }

  @Test("the original's createDoubleActionTask: withThrowingTask with a typed closure")
  func originalDoubleTask() async {
    let calls = RunCounter()
    let action = Action<Int, Int, ColdTestError>.withThrowingTask { input throws(ColdTestError) in
      calls.increment()
      if input < 0 { throw ColdTestError(1) }
      return input * 2
    }
    let applied = action.apply(1)
    #expect(calls.value == 0)
    #expect(await applied.record().values(count: 1) == [2])
    #expect(calls.value == 1)
  }
}

extension MainQueueTests {
  @Suite("Action.immediateOnMainActor")
  struct ActionMainActorTests {
    @Test("immediateOnMainActor runs the block on the main queue, in a later turn")
    func runsOnMainLater() async {
      let log = EventLog()
      let action: Action<Int, Int, Never> = .immediateOnMainActor { input in
        log.append("block on main: \(MainQueue.isCurrent)")
        return input + 1
      }
      let recorder = await MainActor.run {
        let recorder = action.apply(1).record()
        log.append("subscribed")
        return recorder
      }
      #expect(await recorder.values(count: 1) == [2])
      #expect(log.values == ["subscribed", "block on main: true"])
      // `isExecuting` turns false before the completion is sent, not before the value: wait for
      // the completion, which the main queue may not have sent yet when the value arrives.
      #expect(await recorder.completion(timeout: recorder.timeout) == .finished)
      #expect(!action.isExecuting.value)
    }
  }
}
