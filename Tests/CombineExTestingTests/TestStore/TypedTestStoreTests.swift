import CombineExStore
import CombineExTesting
import Foundation
import Testing

// TypedTestStore: the feature's own action type (leading-dot syntax), and `await` forms with a
// default timeout. The calls below are also compile tests: each pins which overload a spelling
// picks (`swift build -Xswiftc -warnings-as-errors` rejects an `await` on a synchronous call).

/// A typed test store for the shared test feature, on `scheduler`.
func makeTypedFeatureStore(
  scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test,
  middlewares: [Middleware<Feature>] = [], timeout: Duration = .seconds(30),
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> TypedTestStore<Feature, FeatureAction> {
  TypedTestStore(
    reducer: featureReducer, state: Feature(), action: FeatureAction.self,
    middlewares: [featureEffects(scheduler: scheduler).asMiddleware()] + middlewares,
    timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Dispatches `Ping(id: 1)` after each `.noop`: a received action of another type.
func pingingMiddleware() -> Middleware<Feature> {
  { dispatch, _, next in
    { action in
      next(action)
      if action as? FeatureAction == .noop { dispatch(Ping(id: 1)) }
    }
  }
}

/// An effect middleware whose `factButtonTapped` loads the fact in a task (another thread).
func taskFactMiddleware() -> Middleware<Feature> {
  EffectMiddleware<FeatureAction, FeatureAction, Feature, Void>.onAction { action, state, _ in
    guard action == .factButtonTapped else { return .doNothing }
    let count = state.count
    return .run { send in
      await Task.yield()
      send(.factLoaded("\(count) is a fine number"))
    }
  }
  .asMiddleware()
}

@Suite("TypedTestStore")
struct TypedTestStoreTests {
  @Test("in a synchronous test, send and receive take the feature's actions with a leading dot")
  func leadingDotSync() {
    let scheduler = DispatchQueue.test
    let store = makeTypedFeatureStore(scheduler: scheduler)
    store.send(.increment) { $0.count = 1 }
    store.send(.factButtonTapped) { $0.isLoading = true }
    scheduler.advance(by: .seconds(1))
    store.receive(.factLoaded("1 is a good number")) {
      $0.fact = "1 is a good number"
      $0.isLoading = false
    }
    store.finish()
  }

  @Test("in an async test, send, receive and finish are awaited, with a leading dot")
  func leadingDotAsync() async {
    let store = TypedTestStore(
      reducer: featureReducer, state: Feature(), action: FeatureAction.self,
      middlewares: [taskFactMiddleware()])
    await store.send(.increment) { $0.count = 1 }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(.factLoaded("1 is a fine number")) {
      $0.fact = "1 is a fine number"
      $0.isLoading = false
    }
    await store.finish()
  }

  @Test("await send returns once the reducer and the middlewares have run, not the effects")
  func asyncSendDoesNotWaitForEffects() async {
    let seen = LockedBox<[String]>([])
    let watching: Middleware<Feature> = { _, _, next in
      { action in
        next(action)
        seen.withLock { $0.append("after \(action)") }
      }
    }
    let store = makeTypedFeatureStore(middlewares: [watching])
    await store.send(.never)
    #expect(seen.withLock { $0 } == ["after never"])
    #expect(store.runningEffects.count == 1)  // the effect that never ends is still running
    store.skipInFlightEffects()
  }

  @Test("await receive waits up to the store's timeout when given none")
  func defaultTimeout() async {
    let store = makeTypedFeatureStore(timeout: .milliseconds(20))
    #expect(store.timeout == .milliseconds(20))
    let recorded = await asyncIssues {
      await store.receive(.tick)
    }
    #expect(recorded.count == 1)
    // The message names the wait, which tells the store's 20 ms from a new store's 30 s without
    // timing the test: a wall-clock bound failed on loaded CI machines, where the cooperative
    // pool ran this test's continuation seconds late.
    #expect(
      recorded.first.map(text(of:))?.contains(
        "Expected to receive FeatureAction.tick, but no action was received within "
          + "\(Duration.milliseconds(20))") == true)
  }

  @Test("a new typed test store waits 30 seconds by default")
  func defaultTimeoutValue() {
    let store = TypedTestStore<Feature, FeatureAction>(reducer: featureReducer, state: Feature())
    #expect(store.timeout == .seconds(30))
    #expect(TypedTestStore<Feature, FeatureAction>.defaultTimeout == .seconds(30))
  }

  @Test("an explicit timeout overrides the store's")
  func explicitTimeout() async {
    let store = makeTypedFeatureStore(timeout: .seconds(30))
    let recorded = await asyncIssues {
      await store.receive(.tick, timeout: .milliseconds(20))
    }
    #expect(recorded.count == 1)
  }

  @Test("actions of another type are received by type, synchronously or awaited")
  func receiveOtherTypes() async {
    let store = makeTypedFeatureStore(middlewares: [pingingMiddleware()])
    await store.send(.noop)
    await store.receive(Ping.self)
    await store.send(.noop)
    await store.receive(Ping.self, where: { $0.id == 1 })
    await store.finish()
  }

  @Test("synchronous receive by type and by predicate")
  func receiveOtherTypesSync() {
    let store = makeTypedFeatureStore(middlewares: [pingingMiddleware()])
    store.send(.noop)
    store.receive(Ping.self)
    store.send(.noop)
    store.receive(Ping.self, where: { $0.id == 1 })
    store.finish()
  }

  @Test("failures are reported at the caller's line")
  func failureLines() async {
    let store = makeTypedFeatureStore()
    var line = 0
    let recorded = await asyncIssues {
      line = #line + 1
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(recorded.first?.sourceLocation?.fileID == #fileID)
    #expect(recorded.first.map(text(of:))?.contains("FeatureAction.increment") == true)
  }

  @Test("exhaustivity is set at creation and may be changed")
  func exhaustivity() {
    let store = TypedTestStore(
      reducer: featureReducer, state: Feature(), action: FeatureAction.self,
      exhaustivity: .off)
    #expect(store.exhaustivity == .off)
    store.send(.increment)  // not asserted: fine with exhaustivity off
    store.exhaustivity = .on
    store.send(.increment) { $0.count = 2 }
    #expect(store.state.count == 2)
  }

  @Test("received and running work is visible, and can be skipped")
  func pendingWork() {
    let store = makeTypedFeatureStore(middlewares: [pingingMiddleware()])
    store.send(.noop)
    #expect(store.receivedActions.count == 1)
    store.skipReceivedActions()
    #expect(store.receivedActions.isEmpty)
    store.send(.never)
    #expect(store.runningEffects.count == 1)
    store.skipInFlightEffects()
    store.finish()
  }

  @Test("TestStore<State> keeps its synchronous send and receive in async tests")
  func untypedStoreStaysSynchronous() async {
    let scheduler = DispatchQueue.test
    let store = makeFeatureStore(scheduler: scheduler)
    store.send(FeatureAction.factButtonTapped) { $0.isLoading = true }
    scheduler.advance(by: .seconds(1))
    store.receive(FeatureAction.factLoaded("0 is a good number")) {
      $0.fact = "0 is a good number"
      $0.isLoading = false
    }
    store.finish()
  }

  @Test("stress: 300 concurrent runs of one typed test store flow, in one test, all pass")
  func stressConcurrentFlows() async {
    let runs = 300
    let failures = await withTaskGroup(of: [String].self) { group in
      for _ in 0..<runs {
        group.addTask { await runSearchFlow() }
      }
      return await group.reduce(into: [[String]]()) { if !$1.isEmpty { $0.append($1) } }
    }
    #expect(
      failures.isEmpty,
      "\(failures.count) of \(runs) runs failed; the first: \(failures.first ?? [])")
  }
}

// MARK: The search feature of the stress test (the flow of issue 16)

/// The search feature's state.
struct HistorySearch: Equatable {
  var query = ""
  var results: [String] = []
  var isSearching = false
  var history: [String] = []
}

/// A failure of the search service.
struct HistorySearchFailure: Error, Equatable {}

/// The search feature's actions.
enum HistorySearchAction: StoreAction, Equatable {
  case queryChanged(String)
  case searchResponse(Result<[String], HistorySearchFailure>)
  case historyRequested
  case historyLoaded([String])
}

/// The search request's id: the same value in every store, as the guides write it.
enum HistorySearchRequestID: Hashable { case search }

func historySearchReducer(_ state: inout HistorySearch, _ action: any StoreAction) {
  switch action as? HistorySearchAction {
  case .queryChanged(let query)?:
    state.query = query
    state.isSearching = true
  case .searchResponse(.success(let results))?:
    state.results = results
    state.isSearching = false
  case .searchResponse(.failure)?:
    state.isSearching = false
  case .historyLoaded(let history)?:
    state.history = history
  case .historyRequested?, nil:
    break
  }
}

/// A debounced query runs an async search; a response asks for the history, loaded async.
func historySearchEffects(
  scheduler: TestSchedulerOf<DispatchQueue>
) -> EffectMiddleware<HistorySearchAction, HistorySearchAction, HistorySearch, Void> {
  .onAction { action, state, _ in
    switch action {
    case .queryChanged(let query):
      return Effect<HistorySearchAction, Never>.run { send in
        await Task.yield()  // the search service
        send(.searchResponse(.success(["\(query) 1", "\(query) 2"])))
      }
      .debounce(id: HistorySearchRequestID.search, for: .milliseconds(300), scheduler: scheduler)
    case .searchResponse(.success):
      return .just(.historyRequested)
    case .historyRequested:
      let query = state.query
      return .run { send in
        await Task.yield()
        send(.historyLoaded([query]))
      }
    case .searchResponse(.failure), .historyLoaded:
      return .doNothing
    }
  }
}

/// One run of the flow; returns the issues its test store recorded (none if it passed). Child
/// tasks of a task group run it at the same time: each suspends at its awaits, so that the runs
/// interleave.
func runSearchFlow() async -> [String] {
  let scheduler = DispatchQueue.test
  let store = TypedTestStore(
    reducer: historySearchReducer, state: HistorySearch(), action: HistorySearchAction.self,
    middlewares: [historySearchEffects(scheduler: scheduler).asMiddleware()])
  let collector = IssueCollector()
  await withKnownIssue(isIntermittent: true) {
    await store.send(.queryChanged("s")) {
      $0.query = "s"
      $0.isSearching = true
    }
    await Task.yield()
    scheduler.advance(by: .milliseconds(100))
    await store.send(.queryChanged("sw")) { $0.query = "sw" }
    await Task.yield()
    scheduler.advance(by: .milliseconds(300))
    await store.receive(.searchResponse(.success(["sw 1", "sw 2"]))) {
      $0.results = ["sw 1", "sw 2"]
      $0.isSearching = false
    }
    await store.receive(.historyRequested)
    await store.receive(.historyLoaded(["sw"])) { $0.history = ["sw"] }
    await store.finish()
  } matching: {
    collector.add($0)
  }
  return collector.issues.map(text(of:))
}
