import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("Store: serial first-in first-out processing")
struct StoreProcessingTests {
  /// A middleware that, after `trigger` has gone down the chain, dispatches `followUps`.
  func dispatching(_ followUps: [String], after trigger: String) -> Middleware<Log> {
    { dispatch, _, next in
      { action in
        next(action)
        if (action as? Named)?.name == trigger {
          for name in followUps { dispatch(Named(name)) }
        }
      }
    }
  }

  @Test("a dispatch from a middleware is processed after the current action, not nested")
  func middlewareDispatchQueued() {
    let seen = Recorder<String>()
    let middleware: Middleware<Log> = { dispatch, getState, next in
      { action in
        seen.append("before \(action)")
        if (action as? Named)?.name == "a" {
          dispatch(Named("b"))
          // The follow-up has not been processed yet: it waits for "a" to finish.
          seen.append("after dispatching b, names: \(getState()?.names ?? [])")
        }
        next(action)
        seen.append("after \(action)")
      }
    }
    let store = makeLogStore([middleware])
    store.dispatch(Named("a"))
    #expect(
      seen.values == [
        "before a", "after dispatching b, names: []", "after a", "before b", "after b",
      ])
    #expect(store.state.names == ["a", "b"])
  }

  @Test("dispatch returns once the action and everything it caused synchronously is processed")
  func dispatchReturnsAfterFollowUps() {
    let store = makeLogStore([
      dispatching(["b", "c"], after: "a"),
      dispatching(["d"], after: "b"),
    ])
    store.dispatch(Named("a"))
    #expect(store.state.names == ["a", "b", "c", "d"])
  }

  @Test("a processed follow-up is released at once, while later follow-ups still run")
  func processedFollowUpsAreReleased() {
    /// An action that carries a counted payload, the `step`-th of a chain.
    struct Carrying: StoreAction {
      let payload: Counted
      let step: Int
    }
    let counter = InstanceCounter()
    let mostAlive = LockedBox(0)
    // Each action of the chain dispatches the next from the middleware: 1,000 follow-ups
    // processed in one turn.
    let chain: Middleware<Log> = { dispatch, _, next in
      { action in
        next(action)
        guard let carrying = action as? Carrying else { return }
        mostAlive.withLock { $0 = max($0, counter.alive) }
        if carrying.step < 1_000 {
          dispatch(Carrying(payload: counter.make(carrying.step + 1), step: carrying.step + 1))
        }
      }
    }
    let store = makeLogStore([chain])
    store.dispatch(Carrying(payload: counter.make(0), step: 0))
    #expect(store.state.names.count == 1_001)
    #expect(mostAlive.withLock { $0 } <= 2, "the first action and the one being processed")
    #expect(counter.alive == 0)
  }

  @Test("follow-ups are processed in the order they were dispatched, breadth first")
  func followUpsFirstInFirstOut() {
    let store = makeLogStore([
      dispatching(["b1", "b2"], after: "a"),
      dispatching(["c1"], after: "b1"),
      dispatching(["c2"], after: "b2"),
    ])
    store.dispatch(Named("a"))
    #expect(store.state.names == ["a", "b1", "b2", "c1", "c2"])
  }

  @Test("a dispatch from a state subscriber is queued after the current action")
  func subscriberDispatchQueued() {
    let store = makeLogStore()
    let observed = Recorder<[String]>()
    let cancellable = store.statePublisher.sink { state in
      observed.append(state.names)
      if state.names.last == "a" {
        store.dispatch(Named("from subscriber"))
        observed.append(store.state.names)  // not processed yet
      }
    }
    store.dispatch(Named("a"))
    #expect(
      observed.values == [
        [], ["a"], ["a"], ["a", "from subscriber"],
      ])
    withExtendedLifetime(cancellable) {}
  }

  @Test("every state subscriber sees a state before any follow-up it caused is processed")
  func subscribersSeeEveryStateInOrder() {
    let store = makeLogStore()
    let first = Recorder<[String]>()
    let second = Recorder<[String]>()
    let a = store.statePublisher.sink { state in
      first.append(state.names)
      if state.names == ["a"] { store.dispatch(Named("b")) }
    }
    let b = store.statePublisher.sink { second.append($0.names) }
    store.dispatch(Named("a"))
    #expect(first.values == [[], ["a"], ["a", "b"]])
    #expect(second.values == first.values)
    withExtendedLifetime((a, b)) {}
  }

  @Test("a synchronous effect's output is processed after the action that caused it")
  func synchronousEffectAfterCause() {
    let effects = EffectMiddleware<Named, Named, Log, Void>.onAction { action, _, _ in
      action.name == "a" ? .sequence(Named("a1"), Named("a2")) : .doNothing
    }
    let store = makeLogStore([effects.asMiddleware(), dispatching(["a-follow"], after: "a")])
    store.dispatch(Named("a"))
    store.dispatch(Named("z"))
    #expect(store.state.names == ["a", "a-follow", "a1", "a2", "z"])
  }

  @Test("a dispatch from another thread waits its turn and is processed on its own thread")
  func otherThreadWaitsItsTurn() async {
    let processingStarted = DispatchSemaphore(value: 0)
    let otherThreadDispatching = DispatchSemaphore(value: 0)
    let threads = Recorder<(String, UInt)>()
    let gate: Middleware<Log> = { dispatch, _, next in
      { action in
        threads.append(("\(action)", threadID()))
        if (action as? Named)?.name == "slow" {
          processingStarted.signal()
          otherThreadDispatching.wait()
          dispatch(Named("slow follow-up"))
        }
        next(action)
      }
    }
    let store = makeLogStore([gate])
    let firstThread = Shared<UInt>(0)
    let secondThread = Shared<UInt>(0)
    let stateWhenSecondReturned = Shared<[String]>([])
    async let first: Void = onOtherThread {
      firstThread.value = threadID()
      store.dispatch(Named("slow"))
    }
    await waitFor(processingStarted)
    async let second: Void = onOtherThread {
      secondThread.value = threadID()
      otherThreadDispatching.signal()
      store.dispatch(Named("other thread"))
      stateWhenSecondReturned.value = store.state.names
    }
    _ = await (first, second)
    // The processing thread's follow-up comes before the other thread's action.
    #expect(store.state.names == ["slow", "slow follow-up", "other thread"])
    // The second dispatch returned after its action had been processed.
    #expect(stateWhenSecondReturned.value.contains("other thread"))
    let byAction = Dictionary(threads.values, uniquingKeysWith: { first, _ in first })
    #expect(byAction["slow"] == firstThread.value)
    #expect(byAction["slow follow-up"] == firstThread.value)
    #expect(byAction["other thread"] == secondThread.value)
  }

  @Test("a dispatch from another thread returns with its own follow-ups processed")
  func otherThreadReturnsAfterItsFollowUps() async {
    let store = makeLogStore([dispatching(["b"], after: "a")])
    let names = Shared<[String]>([])
    await onOtherThread {
      store.dispatch(Named("a"))
      names.value = store.state.names
    }
    #expect(names.value == ["a", "b"])
  }

  @Test("stress: 8 threads dispatching 10,000 actions each lose none, in order per thread")
  func stressManyThreads() async {
    // Each dispatch that finds another thread processing waits for its turn. Measured: about
    // 8 s in a debug run with the other tests in parallel, about 9 s under the thread sanitizer
    // with `--no-parallel`, on a loaded two-core machine.
    let perThread = 10_000
    let threads = 8
    struct Tagged: StoreAction {
      let thread: Int
      let index: Int
    }
    struct Tally: Sendable {
      var total = 0
      var lastIndex = Array(repeating: -1, count: 8)
      var outOfOrder = 0
    }
    let store = Store(
      reducer: { (tally: inout Tally, action: any StoreAction) in
        guard let tagged = action as? Tagged else { return }
        tally.total += 1
        if tagged.index != tally.lastIndex[tagged.thread] + 1 { tally.outOfOrder += 1 }
        tally.lastIndex[tagged.thread] = tagged.index
      },
      state: Tally())
    let emitted = Counter()
    let cancellable = store.statePublisher.sink { _ in emitted.increment() }
    await concurrentPerform(threads) { thread in
      for index in 0..<perThread {
        store.dispatch(Tagged(thread: thread, index: index))
      }
    }
    #expect(store.state.total == threads * perThread)
    #expect(store.state.outOfOrder == 0)
    #expect(store.state.lastIndex == Array(repeating: perThread - 1, count: threads))
    #expect(emitted.count == threads * perThread + 1)
    withExtendedLifetime(cancellable) {}
  }

  @Test("stress: follow-ups dispatched on many threads are all processed, each after its cause")
  func stressFollowUps() async {
    let perThread = isRunningUnderThreadSanitizer ? 200 : 1_000
    let threads = 4
    struct Cause: StoreAction { let id: Int }
    struct Effect: StoreAction { let id: Int }
    struct Seen: Sendable {
      var causes = Set<Int>()
      var effects = 0
      var effectBeforeCause = 0
      var interleaved = 0
      var expectingEffectOf: Int?
    }
    let echo: Middleware<Seen> = { dispatch, _, next in
      { action in
        next(action)
        if let cause = action as? Cause { dispatch(Effect(id: cause.id)) }
      }
    }
    let store = Store(
      reducer: { (seen: inout Seen, action: any StoreAction) in
        if let cause = action as? Cause {
          if seen.expectingEffectOf != nil { seen.interleaved += 1 }
          seen.causes.insert(cause.id)
          seen.expectingEffectOf = cause.id
        } else if let effect = action as? Effect {
          if !seen.causes.contains(effect.id) { seen.effectBeforeCause += 1 }
          if seen.expectingEffectOf != effect.id { seen.interleaved += 1 }
          seen.expectingEffectOf = nil
          seen.effects += 1
        }
      },
      state: Seen(), middlewares: [echo])
    await concurrentPerform(threads) { thread in
      for index in 0..<perThread {
        store.dispatch(Cause(id: thread * perThread + index))
      }
    }
    #expect(store.state.causes.count == threads * perThread)
    #expect(store.state.effects == threads * perThread)
    #expect(store.state.effectBeforeCause == 0)
    #expect(store.state.interleaved == 0)
  }
}
