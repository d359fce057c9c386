import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("TestStore")
struct TestStoreTests {
  @Test("send checks the state change described by the closure")
  func sendAssertsStateChange() {
    let store = makeFeatureStore()
    store.send(FeatureAction.increment) { $0.count = 1 }
    store.send(FeatureAction.increment) { $0.count = 2 }
    store.send(FeatureAction.decrement) { $0.count = 1 }
    #expect(store.state.count == 1)
  }

  @Test("send without a closure passes when the state does not change")
  func sendWithoutClosure() {
    let store = makeFeatureStore()
    store.send(FeatureAction.noop)
    #expect(store.state == Feature())
  }

  @Test("receive asserts an action an effect published synchronously, and its state change")
  func receiveSynchronousEffectOutput() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    store.send(FeatureAction.increment) { $0.count = 10 }
    store.receive(FeatureAction.factLoaded("ten!")) { $0.fact = "ten!" }
    store.finish()
  }

  @Test("the sent action is checked against the state right after it, not after its follow-ups")
  func sendChecksStateAfterTheSentActionOnly() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    // The effect's factLoaded is processed before send returns, but belongs to receive.
    store.send(FeatureAction.increment) { $0.count = 10 }
    #expect(store.state.fact == "ten!")
    store.receive(FeatureAction.factLoaded("ten!")) { $0.fact = "ten!" }
  }

  @Test("actions published after a scheduler advance are received in order")
  func receiveAfterAdvance() {
    let scheduler = DispatchQueue.test
    let store = makeFeatureStore(scheduler: scheduler)
    store.send(FeatureAction.factButtonTapped) { $0.isLoading = true }
    #expect(store.receivedActions.isEmpty)
    #expect(store.runningEffects.count == 1)
    scheduler.advance(by: .seconds(1))
    #expect(store.runningEffects.isEmpty)
    store.receive(FeatureAction.factLoaded("0 is a good number")) {
      $0.fact = "0 is a good number"
      $0.isLoading = false
    }
    store.finish()
  }

  @Test("receive by type, and by type and predicate")
  func receiveByType() {
    let pinging: Middleware<Feature> = { dispatch, _, next in
      { action in
        next(action)
        if case .noop? = action as? FeatureAction {
          dispatch(Ping(id: 1))
          dispatch(Ping(id: 2))
        }
      }
    }
    let store = makeFeatureStore(middlewares: [pinging])
    store.send(FeatureAction.noop)
    store.receive(Ping.self)
    store.receive(Ping.self, where: { $0.id == 2 })
    store.finish()
  }

  @Test("a timer effect runs until it is cancelled; its ticks are received")
  func timerEffect() {
    let scheduler = DispatchQueue.test
    let store = makeFeatureStore(scheduler: scheduler)
    store.send(FeatureAction.startTimer)
    scheduler.advance(by: .seconds(2))
    store.receive(FeatureAction.tick) { $0.ticks = 1 }
    store.receive(FeatureAction.tick) { $0.ticks = 2 }
    store.send(FeatureAction.stopTimer)
    scheduler.advance(by: .seconds(5))
    #expect(store.runningEffects.isEmpty)
    store.finish()
  }

  @Test("a debounced effect replaced by a newer one is no longer running")
  func debouncedEffects() {
    let scheduler = DispatchQueue.test
    let store = makeFeatureStore(scheduler: scheduler)
    store.send(FeatureAction.queryChanged("s")) { $0.query = "s" }
    scheduler.advance(by: .milliseconds(100))
    store.send(FeatureAction.queryChanged("sw")) { $0.query = "sw" }
    // The second run cancelled the first, which is over at once: only one is running.
    #expect(store.runningEffects.count == 1)
    scheduler.advance(by: .milliseconds(300))
    store.receive(FeatureAction.searchResults(["SW"])) { $0.results = ["SW"] }
    #expect(store.runningEffects.isEmpty)
    store.finish()
  }

  @Test("runningEffects names each effect and the action that started it")
  func runningEffectsDescriptions() {
    let store = makeFeatureStore()
    store.send(FeatureAction.never)
    let effects = store.runningEffects
    #expect(effects.count == 1)
    #expect(effects.first?.contains("EffectMiddleware") == true)
    #expect(effects.first?.contains("the sent action FeatureAction.never") == true)
    store.skipInFlightEffects()
  }

  @Test("state is the store's current state")
  func currentState() {
    let store = makeFeatureStore()
    #expect(store.state == Feature())
    store.send(FeatureAction.increment) { $0.count = 1 }
    #expect(store.state == Feature(count: 1))
  }

  @Test("actions a thunk dispatches synchronously are received")
  func thunkActions() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(), middlewares: [createThunkMiddleware()])
    store.send(
      Thunk<Feature> { dispatch, _ in
        dispatch(FeatureAction.increment)
        dispatch(FeatureAction.increment)
      })
    store.receive(FeatureAction.increment) { $0.count = 1 }
    store.receive(FeatureAction.increment) { $0.count = 2 }
    store.finish()
  }

  @Test("the pipelines of a retained publisher action run until their cleanup")
  func retainedPublisherPipelines() {
    let publishers = PublisherMiddleware<Feature>()
    let store = TestStore(
      reducer: featureReducer, state: Feature(), middlewares: [publishers.middleware])
    let responses = PassthroughSubject<String, Never>()
    store.send(
      RetainedPublisherAction<Feature> { dispatch, _, cancellables, cleanup in
        responses.handleCleanup(cleanup)
          .sink { dispatch(FeatureAction.factLoaded($0)) }
          .store(in: &cancellables)
      })
    #expect(store.runningEffects.first?.contains("RetainedPublisherAction") == true)
    responses.send("hello")
    store.receive(FeatureAction.factLoaded("hello")) { $0.fact = "hello" }
    responses.send(completion: .finished)
    #expect(store.runningEffects.isEmpty)
    store.finish()
  }

  @Test("skipReceivedActions discards the unasserted received actions")
  func skipReceivedActions() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    store.send(FeatureAction.increment) { $0.count = 10 }
    #expect(store.receivedActions.count == 1)
    store.skipReceivedActions()
    #expect(store.receivedActions.isEmpty)
    store.send(FeatureAction.noop)
    store.finish()
  }

  @Test("skipInFlightEffects lets the test end with effects running")
  func skipInFlightEffects() {
    let store = makeFeatureStore()
    store.send(FeatureAction.never)
    store.skipInFlightEffects()
    #expect(store.runningEffects.isEmpty)
    store.finish()
  }

  @Test("an effect that ends after skipInFlightEffects is ignored")
  func effectEndingAfterSkip() {
    let scheduler = DispatchQueue.test
    let store = makeFeatureStore(scheduler: scheduler)
    store.send(FeatureAction.factButtonTapped) { $0.isLoading = true }
    store.skipInFlightEffects()
    scheduler.advance(by: .seconds(1))
    store.receive(FeatureAction.factLoaded("0 is a good number")) {
      $0.fact = "0 is a good number"
      $0.isLoading = false
    }
    store.finish()
  }

  @Test("the end-of-life checks pass silently when everything was asserted")
  func endOfLifeWithoutFinish() {
    let scheduler = DispatchQueue.test
    do {
      let store = makeFeatureStore(scheduler: scheduler)
      store.send(FeatureAction.increment) { $0.count = 1 }
    }
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("an async effect's action is awaited with a timeout")
  func asyncReceive() async {
    let effects = EffectMiddleware<FeatureAction, FeatureAction, Feature, Void>.onAction {
      action, _, _ in
      guard action == .factButtonTapped else { return .doNothing }
      return .run { send in
        await Task.yield()
        send(.factLoaded("async"))
      }
    }
    let store = TestStore(
      reducer: featureReducer, state: Feature(), middlewares: [effects.asMiddleware()])
    store.send(FeatureAction.factButtonTapped) { $0.isLoading = true }
    await store.receive(FeatureAction.factLoaded("async"), timeout: .seconds(30)) {
      $0.fact = "async"
      $0.isLoading = false
    }
    await store.finish(timeout: .seconds(30))
  }

  @Test("an async effect's action is awaited by type")
  func asyncReceiveByType() async {
    let pinging = EffectMiddleware<FeatureAction, Ping, Feature, Void>.onAction { _, _, _ in
      .run { send in
        await Task.yield()
        send(Ping(id: 3))
      }
    }
    let store = TestStore(
      reducer: featureReducer, state: Feature(), middlewares: [pinging.asMiddleware()])
    store.send(FeatureAction.noop)
    await store.receive(Ping.self, timeout: .seconds(30))
    await store.finish(timeout: .seconds(30))
  }

  @Test("finish(timeout:) waits for effects running on other threads to end")
  func finishWaitsForEffects() async {
    let gate = PassthroughSubject<Void, Never>()
    let effects = EffectMiddleware<FeatureAction, FeatureAction, Feature, Void>.onAction {
      _, _, _ in
      gate.receive(on: DispatchQueue(label: "finish")).first()
        .flatMap { Empty<FeatureAction, Never>() }.eraseToEffect()
    }
    let store = TestStore(
      reducer: featureReducer, state: Feature(), middlewares: [effects.asMiddleware()])
    store.send(FeatureAction.noop)
    #expect(store.runningEffects.count == 1)
    gate.send(())
    await store.finish(timeout: .seconds(30))
    #expect(store.runningEffects.isEmpty)
  }
}

@Suite("TestStore, non-exhaustive")
struct NonExhaustiveTestStoreTests {
  @Test("a send without a closure may change the state")
  func sendWithoutClosure() {
    let store = makeFeatureStore(exhaustivity: .off)
    store.send(FeatureAction.increment)
    #expect(store.state.count == 1)
  }

  @Test("a closure only needs to set the fields the test checks")
  func partialAssertion() {
    let scheduler = DispatchQueue.test
    let store = makeFeatureStore(scheduler: scheduler, exhaustivity: .off)
    store.send(FeatureAction.increment)
    store.send(FeatureAction.factButtonTapped) { $0.isLoading = true }
    scheduler.advance(by: .seconds(1))
    store.receive(FeatureAction.factLoaded("1 is a good number")) { $0.isLoading = false }
  }

  @Test("receive skips the received actions before the one asserted")
  func receiveSkips() {
    let pinging: Middleware<Feature> = { dispatch, _, next in
      { action in
        next(action)
        if case .noop? = action as? FeatureAction {
          dispatch(Ping(id: 1))
          dispatch(FeatureAction.increment)
          dispatch(Ping(id: 2))
        }
      }
    }
    let store = makeFeatureStore(middlewares: [pinging], exhaustivity: .off)
    store.send(FeatureAction.noop)
    store.receive(Ping.self, where: { $0.id == 2 })
    #expect(store.receivedActions.isEmpty)
  }

  @Test("a send skips the unasserted received actions, and the end ignores running effects")
  func lenientEnd() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()],
      exhaustivity: .off)
    store.send(FeatureAction.increment)
    store.send(FeatureAction.never)
    #expect(store.receivedActions.isEmpty)
    #expect(store.runningEffects.count == 1)
    store.finish()
  }

  @Test("exhaustivity can be switched off in the middle of a test")
  func switchingExhaustivity() {
    let store = makeFeatureStore()
    store.send(FeatureAction.increment) { $0.count = 1 }
    store.exhaustivity = .off
    store.send(FeatureAction.increment)
    store.send(FeatureAction.never)
  }
}

@Suite("TestStore, concurrent effects")
struct ConcurrentTestStoreTests {
  @Test("stress: actions and effect ends from many threads are all seen, in any order")
  func stressManyThreads() async {
    let workers = 64
    // A custom middleware reporting its own work: each worker dispatches from another thread,
    // then ends.
    let fanOut: Middleware<Feature> = { dispatch, _, next in
      { action in
        next(action)
        guard case .noop? = action as? FeatureAction else { return }
        for id in 0..<workers {
          let work = EffectTracking.start("worker \(id)")
          DispatchQueue.global().async {
            dispatch(Ping(id: id))
            work?.end()
          }
        }
      }
    }
    let store = TestStore(reducer: featureReducer, state: Feature(), middlewares: [fanOut])
    store.send(FeatureAction.noop)
    for _ in 0..<workers {
      await store.receive(Ping.self, timeout: .seconds(30))
    }
    await store.finish(timeout: .seconds(30))
    #expect(store.runningEffects.isEmpty)
    #expect(store.receivedActions.isEmpty)
  }

  @Test("a custom middleware's work reported with EffectTracking.start is named at the end")
  func customTrackedWork() {
    let holding: Middleware<Feature> = { _, _, next in
      { action in
        next(action)
        if case .never? = action as? FeatureAction {
          _ = EffectTracking.start("the custom polling of holding")
        }
      }
    }
    let store = TestStore(reducer: featureReducer, state: Feature(), middlewares: [holding])
    let sendLine = #line + 1
    store.send(FeatureAction.never)
    #expect(
      store.runningEffects == [
        "the custom polling of holding, started by the sent action FeatureAction.never "
          + "(TestStoreTests.swift:\(sendLine))"
      ])
    store.skipInFlightEffects()
  }
}
