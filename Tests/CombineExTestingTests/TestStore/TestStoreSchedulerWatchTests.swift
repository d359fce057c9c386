import CombineExStore
import CombineExTesting
import Foundation
import Testing

// A test store told which test schedulers its effects use fails a wait at once when one of
// them holds work and nothing happens: the test forgot to advance it.

@Suite("TestStore watching its test schedulers")
struct TestStoreSchedulerWatchTests {
  @Test(
    "a test with a one-hour timeout that forgets to advance the scheduler ends long before the hour, naming the scheduler and the next time"
  )
  func forgottenAdvanceFailsFast() async {
    let scheduler = DispatchQueue.test
    let store = TypedTestStore(
      reducer: featureReducer, state: Feature(), action: FeatureAction.self,
      middlewares: [featureEffects(scheduler: scheduler).asMiddleware()],
      timeout: .seconds(3_600), schedulers: [scheduler])
    await store.send(.queryChanged("swift")) { $0.query = "swift" }
    let start = ContinuousClock.now
    var line = 0
    let recorded = await asyncIssues {
      line = #line + 1
      await store.receive(.searchResults(["SWIFT"])) { $0.results = ["SWIFT"] }
    }
    // The wait gives up after 200 ms without progress; the bound is far above that so that a
    // loaded machine (25 s was measured once) cannot fail it, and far below the hour.
    #expect(ContinuousClock.now - start < .seconds(600))
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    let message = recorded.first.map(text(of:)) ?? ""
    #expect(
      message.contains(
        "Expected to receive FeatureAction.searchResults([\"SWIFT\"]), but no action was "
          + "received for 200 ms, and a test scheduler holds work: advance the test scheduler "
          + "TestSchedulerOf<DispatchQueue>: the next action is scheduled at +300 ms"),
      "\(message)")
    // Advancing it then lets the test go on.
    scheduler.advance(by: .milliseconds(300))
    await store.receive(.searchResults(["SWIFT"])) { $0.results = ["SWIFT"] }
    await store.finish()
  }

  @Test("finish with a one-hour timeout fails fast when the effect waits on the scheduler")
  func forgottenAdvanceAtFinishFailsFast() async {
    let scheduler = DispatchQueue.test
    let store = TestStore(
      reducer: featureReducer, state: Feature(),
      middlewares: [featureEffects(scheduler: scheduler).asMiddleware()],
      schedulers: [scheduler])
    store.send(FeatureAction.factButtonTapped) { $0.isLoading = true }
    let start = ContinuousClock.now
    let recorded = await asyncIssues {
      await store.finish(timeout: .seconds(3_600))
    }
    // The wait gives up after 200 ms without progress; the bound is far above that so that a
    // loaded machine (25 s was measured once) cannot fail it, and far below the hour.
    #expect(ContinuousClock.now - start < .seconds(600))
    #expect(recorded.count == 1)
    let message = recorded.first.map(text(of:)) ?? ""
    #expect(message.contains("An effect is still running at the end of the test"), "\(message)")
    #expect(
      message.contains(
        "Nothing happened for 200 ms, and a test scheduler holds work: advance the test "
          + "scheduler TestSchedulerOf<DispatchQueue>: the next action is scheduled at +1 s"),
      "\(message)")
  }

  @Test("with several schedulers the message says which one holds work")
  func namesWhichScheduler() async {
    let idle = RunLoop.test
    let scheduler = DispatchQueue.test
    let store = TypedTestStore(
      reducer: featureReducer, state: Feature(), action: FeatureAction.self,
      middlewares: [featureEffects(scheduler: scheduler).asMiddleware()],
      timeout: .seconds(3_600), schedulers: [idle, scheduler])
    await store.send(.queryChanged("s")) { $0.query = "s" }
    let recorded = await asyncIssues {
      await store.receive(.searchResults(["S"]))
    }
    #expect(
      recorded.first.map(text(of:))?.contains(
        "advance the test scheduler TestSchedulerOf<DispatchQueue> (schedulers[1]): the next "
          + "action is scheduled at +300 ms") == true)
    store.skipInFlightEffects()
  }

  @Test("a wait goes on while another thread advances the scheduler")
  func advancingElsewhereIsProgress() async {
    let scheduler = DispatchQueue.test
    let store = TypedTestStore(
      reducer: featureReducer, state: Feature(), action: FeatureAction.self,
      middlewares: [featureEffects(scheduler: scheduler).asMiddleware()],
      timeout: .seconds(30), schedulers: [scheduler])
    await store.send(.factButtonTapped) { $0.isLoading = true }
    // 20 advances of 50 ms, 40 ms apart: the fact (due at +1 s) comes after about 800 ms of
    // real time, four times the 200 ms a wait lets pass without progress.
    let longestGap = LockedBox(Duration.zero)
    let advanced = DispatchSemaphore(value: 0)
    let advancing = Thread {
      defer { advanced.signal() }
      var last = ContinuousClock.now
      for _ in 0..<20 {
        Thread.sleep(forTimeInterval: 0.04)
        scheduler.advance(by: .milliseconds(50))
        let now = ContinuousClock.now
        longestGap.withLock { $0 = max($0, now - last) }
        last = now
      }
    }
    advancing.start()
    let recorded = await possibleIssues {
      await store.receive(.factLoaded("0 is a good number")) {
        $0.fact = "0 is a good number"
        $0.isLoading = false
      }
    }
    // A loaded machine may keep the advancing thread asleep for longer than 200 ms: only then
    // may the wait have stopped.
    if !recorded.isEmpty {
      // The gap that stopped the wait is measured when the late advance comes: wait for it.
      #expect(advanced.wait(timeout: .now() + 60) == .success)
      #expect(longestGap.withLock { $0 } >= .milliseconds(150), "\(recorded.map(text(of:)))")
      store.skipReceivedActions()
      store.skipInFlightEffects()
      return
    }
    await store.finish()
  }

  @Test("a store told about a scheduler that holds no work waits its whole timeout")
  func noWaitingWorkWaitsTheTimeout() async {
    let scheduler = DispatchQueue.test
    let store = TypedTestStore(
      reducer: featureReducer, state: Feature(), action: FeatureAction.self,
      middlewares: [featureEffects(scheduler: scheduler).asMiddleware()],
      timeout: .milliseconds(500), schedulers: [scheduler])
    await store.send(.never)
    let recorded = await asyncIssues {
      await store.receive(.tick)
    }
    #expect(
      recorded.first.map(text(of:))?.contains(
        "no action was received within \(Duration.milliseconds(500))") == true)
    store.skipInFlightEffects()
  }

  @Test("a store not told about its scheduler keeps waiting for the timeout")
  func storeNotToldWaitsTheTimeout() async {
    let scheduler = DispatchQueue.test
    let store = makeTypedFeatureStore(scheduler: scheduler, timeout: .milliseconds(500))
    await store.send(.queryChanged("swift")) { $0.query = "swift" }
    let recorded = await asyncIssues {
      await store.receive(.searchResults(["SWIFT"]))
    }
    #expect(
      recorded.first.map(text(of:))?.contains(
        "no action was received within \(Duration.milliseconds(500))") == true)
    scheduler.advance(by: .milliseconds(300))
    await store.receive(.searchResults(["SWIFT"])) { $0.results = ["SWIFT"] }
  }

  @Test("a test scheduler reports the work waiting on it")
  func waitingWork() {
    let scheduler = DispatchQueue.test
    #expect(scheduler.waitingWork == WaitingWork(count: 0, nextDueIn: nil, advances: 0))
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) {}
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) {}
    #expect(
      scheduler.waitingWork == WaitingWork(count: 2, nextDueIn: .milliseconds(300), advances: 0))
    scheduler.advance(by: .milliseconds(500))
    #expect(
      scheduler.waitingWork == WaitingWork(count: 1, nextDueIn: .milliseconds(1_500), advances: 1))
    let runLoop = RunLoop.test
    runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(250))) {}
    #expect(runLoop.waitingWork.nextDueIn == .milliseconds(250))
    #expect(scheduler.description == "TestSchedulerOf<DispatchQueue>")
    #expect(runLoop.description == "TestSchedulerOf<RunLoop>")
    #expect(ImmediateScheduler.test.description == "TestSchedulerOf<ImmediateScheduler>")
  }
}

/// The issues `body` records, if any: an intermittent known issue.
private func possibleIssues(recordedBy body: () async -> Void) async -> [Issue] {
  let collector = IssueCollector()
  await withKnownIssue(isIntermittent: true) {
    await body()
  } matching: {
    collector.add($0)
  }
  return collector.issues
}
