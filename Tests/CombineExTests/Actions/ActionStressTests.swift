import CombineEx
import CombineExTesting
import Testing

@Suite("Action under concurrency")
struct ActionStressTests {
  @Test("stress: two threads subscribing at once: exactly one runs, the other gets .disabled")
  func stressTwoSubscribersOneRun() async {
    for round in 0..<1_000 {
      let calls = RunCounter()
      let action = Action<Void, Int, Never> {
        calls.increment()
        return AnyDeferredPublisher { Empty(completeImmediately: false) }
      }
      let applied = action.apply()
      let recorders = [
        TestSubscriber<Int, ActionError<Never>>(), TestSubscriber<Int, ActionError<Never>>(),
      ]
      await concurrentPerform(2) { index in applied.subscribe(recorders[index]) }
      let refused = recorders.filter { $0.receivedCompletion == .failure(.disabled) }
      let running = recorders.filter { $0.receivedCompletion == nil }
      #expect(refused.count == 1, "round \(round)")
      #expect(running.count == 1, "round \(round)")
      #expect(calls.value == 1, "round \(round)")
      #expect(action.isExecuting.value, "round \(round)")
      running.first?.cancel()
      #expect(!action.isExecuting.value, "round \(round)")
      if refused.count != 1 || calls.value != 1 { break }
    }
  }

  @Test("stress: concurrent applies never overlap, and each attempt either runs or is refused")
  func stressConcurrentAppliesNeverOverlap() async {
    let inFlight = LockedBox((current: 0, overlaps: 0))
    let action = Action<Int, Int, Never> { input in
      inFlight.withLock {
        $0.current += 1
        if $0.current > 1 { $0.overlaps += 1 }
      }
      return AnyDeferredPublisher {
        Just(input).handleEvents(receiveCompletion: { _ in
          inFlight.withLock { $0.current -= 1 }
        })
      }
    }
    let executing = action.isExecuting.record()
    let values = action.values.record()
    let completed = action.completed.record()
    let finished = RunCounter()
    let refused = RunCounter()
    let delivered = RunCounter()
    let threads = 8
    let attempts = 250
    await concurrentPerform(threads) { thread in
      for attempt in 0..<attempts {
        let cancellable = action.apply(thread * attempts + attempt).sink(
          receiveCompletion: { completion in
            if case .failure(.disabled) = completion {
              refused.increment()
            } else {
              finished.increment()
            }
          },
          receiveValue: { _ in delivered.increment() })
        cancellable.cancel()
      }
    }
    let runs = finished.value
    #expect(inFlight.withLock { $0.overlaps } == 0)
    #expect(runs + refused.value == threads * attempts)
    #expect(runs > 0)
    #expect(delivered.value == runs)
    #expect(values.values.count == runs)
    #expect(completed.values.count == runs)
    #expect(!action.isExecuting.value)
    let published = executing.values
    #expect(zip(published, published.dropFirst()).allSatisfy { $0 != $1 })
    #expect(published.filter { $0 }.count == runs)
    #expect(published.last == false)
  }

  @Test("stress: isEnabled settles on enabledIf && !isExecuting while enabledIf toggles")
  func stressEnabledIfTogglesDuringRuns() async {
    let enabledIf = MutableProperty(true)
    let action = Action<Int, Int, Never>(enabledIf: Property(enabledIf)) { input in .just(input) }
    let enabled = action.isEnabled.record()
    let executing = action.isExecuting.record()
    await concurrentPerform(4) { thread in
      for attempt in 0..<250 {
        if thread % 2 == 0 {
          enabledIf.value = attempt % 3 != 0
        } else {
          let cancellable = action.apply(attempt).sink(
            receiveCompletion: { _ in }, receiveValue: { _ in })
          cancellable.cancel()
        }
      }
    }
    enabledIf.value = true
    #expect(action.isEnabled.value)
    #expect(!action.isExecuting.value)
    let published = enabled.values
    #expect(zip(published, published.dropFirst()).allSatisfy { $0 != $1 })
    #expect(published.last == true)
    let executions = executing.values
    #expect(zip(executions, executions.dropFirst()).allSatisfy { $0 != $1 })
    #expect(executions.last == false)
  }
}
