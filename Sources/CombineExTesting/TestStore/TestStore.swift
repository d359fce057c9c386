import CombineExStore
import Testing

/// A harness for testing a CombineExStore feature step by step: send an action, describe how
/// the state changes, assert the actions its effects dispatch back, and fail when anything
/// happened that the test did not assert (in the spirit of The Composable Architecture's
/// `TestStore`).
///
/// ```swift
/// struct Counter: Equatable { var count = 0; var fact: String? }
/// enum CounterAction: StoreAction, Equatable { case increment, factLoaded(String) }
///
/// let facts = EffectMiddleware<CounterAction, CounterAction, Counter, Void>.onAction {
///   action, state, _ in
///   guard action == .increment else { return .doNothing }
///   return .just(.factLoaded("\(state.count) is a number"))
/// }
/// let store = TestStore(
///   reducer: { (state: inout Counter, action: any StoreAction) in
///     switch action as? CounterAction {
///     case .increment?: state.count += 1
///     case .factLoaded(let fact)?: state.fact = fact
///     case nil: break
///     }
///   },
///   state: Counter(), middlewares: [facts.asMiddleware()])
/// store.send(CounterAction.increment) { $0.count = 1 }
/// store.receive(CounterAction.factLoaded("1 is a number")) { $0.fact = "1 is a number" }
/// store.finish()
/// ```
///
/// ## What is checked
/// - ``send(_:assert:fileID:filePath:line:column:)`` dispatches the action and, once the store
///   has processed it, compares the state right after that action with the expected state: the
///   state before it, changed by the trailing closure. Without a closure, the state must not
///   have changed.
/// - Actions dispatched by effects, thunks or middlewares are *received*: each must be asserted,
///   in order, with ``receive(_:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_)`` (an
///   `Equatable` action
///   value) or ``receive(_:where:assert:fileID:filePath:line:column:)`` (a type and a
///   predicate), which checks its state change the same way.
/// - A send while received actions are still unasserted fails, and so does
///   ``finish(fileID:filePath:line:column:)`` (or the
///   end of the test store's life) with unasserted actions or with effects still running. Each
///   running effect is reported at the line of the send that started it, naming the action that
///   started it.
///
/// With ``Exhaustivity-swift.enum/off``, only what the test asserts is checked (see
/// ``exhaustivity-swift.property``).
///
/// For a feature with one action type, ``TypedTestStore`` takes that type, so that actions are
/// written with a leading dot (`send(.increment)`), and has `await` forms of every method.
///
/// ## Effects and time
/// The store counts as *running* an effect returned by an `EffectMiddleware` until it ends,
/// and the pipelines of a `RetainedPublisherAction` while the `PublisherMiddleware` retains
/// them (both report to `EffectTracking`). Give the middlewares a `TestScheduler`
/// (`DispatchQueue.test`) and advance it in the test: actions published during an advance are
/// received like any other. Work that a thunk or a custom middleware starts is not tracked
/// unless it reports itself with `EffectTracking.start(_:)`.
///
/// The test store's `Store` has its own table of cancellation ids: test stores running at the
/// same time (tests in parallel) never cancel, debounce or throttle each other's effects.
///
/// ## Failures
/// Failures are recorded at the caller's line: through Swift Testing's `Issue.record` when a
/// Swift Testing test is running on the current task, otherwise through XCTest's `XCTFail`.
/// Call the test store from the test itself (not from a detached task), so that the failure
/// reaches the test that is running.
public final class TestStore<State: Equatable> {
  /// How strictly a ``TestStore`` checks what the test did not assert.
  public enum Exhaustivity: Sendable, Equatable {
    /// Every state change, received action and effect must be asserted (the default).
    case on
    /// Only what the test asserts is checked: a send or receive closure only needs to set the
    /// fields the test cares about (it changes a copy of the *actual* new state, which must stay
    /// equal to it); unasserted received actions are skipped; effects may still run at the end.
    case off
  }

  /// How strictly the store checks what the test did not assert; ``Exhaustivity-swift.enum/on``
  /// by default. It may be changed at any point of a test.
  public var exhaustivity: Exhaustivity

  private let store: Store<State>
  private let log: TestStoreLog<State>
  /// The test schedulers the effects use, which the waits watch for a forgotten advance.
  private let schedulers: [any ManuallyAdvancedScheduler]
  private let creation: CallSite
  private var finished = false

  /// Creates a test store around a new `Store` made from `reducer`, `state` and
  /// `middlewares` (the store's own initializer), with a recording middleware placed first.
  ///
  /// - Parameters:
  ///   - reducer: The reducer under test.
  ///   - state: The initial state.
  ///   - middlewares: The middlewares, as the store would get them. Give time-based ones a
  ///     `TestScheduler`.
  ///   - exhaustivity: ``Exhaustivity-swift.enum/on`` (the default) or
  ///     ``Exhaustivity-swift.enum/off``.
  ///   - schedulers: The test schedulers the effects use (`[scheduler]`). When one of them
  ///     holds work and nothing has happened for 200 ms, an `await` of `receive` or `finish`
  ///     fails at once, naming the scheduler and when its next work is due, instead of waiting
  ///     out its timeout: the test forgot to advance it. None by default: the waits last their
  ///     whole timeout.
  ///   - fileID: Where the end-of-life checks are reported if the test
  ///     never calls ``finish(fileID:filePath:line:column:)``.
  ///   - filePath: See `fileID`.
  ///   - line: See `fileID`.
  ///   - column: See `fileID`.
  public init(
    reducer: @escaping Reducer<State>, state: State, middlewares: [Middleware<State>] = [],
    exhaustivity: Exhaustivity = .on, schedulers: [any ManuallyAdvancedScheduler] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let log = TestStoreLog<State>()
    self.log = log
    self.exhaustivity = exhaustivity
    self.schedulers = schedulers
    creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    store = Store(reducer: reducer, state: state, middlewares: [log.middleware] + middlewares)
  }

  /// Runs the end-of-test checks of ``finish(fileID:filePath:line:column:)`` if the test did not
  /// call it, at the line where
  /// the test store was created. Then the store is freed, which cancels its effects.
  deinit {
    if !finished { checkEnd(at: creation) }
  }

  // MARK: State and what is pending

  /// The store's current state.
  public var state: State {
    store.state
  }

  /// The actions received (dispatched by effects, thunks or middlewares) that the test has not
  /// asserted yet, oldest first.
  public var receivedActions: [any StoreAction] {
    log.pendingReceived.map(\.action)
  }

  /// The effects in flight, each described with the action that started it.
  public var runningEffects: [String] {
    log.runningEffects.map { "\($0.description), started by \(describe($0.cause))" }
  }

  // MARK: Sending

  /// Sends an action to the store and checks the state right after it.
  ///
  /// ```swift
  /// // Setup: counter-store — the `store` of TestStore's example
  /// store.send(CounterAction.increment) { $0.count = 1 }
  /// ```
  ///
  /// The store processes the action, and everything it causes synchronously, before `send`
  /// returns; the actions it causes are then waiting to be received.
  ///
  /// - Parameters:
  ///   - action: The action to dispatch.
  ///   - updateStateToExpectedResult: Changes a copy of the state before the action into the
  ///     state expected after it (with exhaustivity off: a copy of the actual state after it,
  ///     which must stay equal). Without it, the state must not change (exhaustivity on).
  ///   - fileID: Where failures are reported; the caller's line by default.
  ///   - filePath: See `fileID`.
  ///   - line: See `fileID`.
  ///   - column: See `fileID`.
  public func send(
    _ action: any StoreAction,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let unasserted = log.clearReceived()
    if exhaustivity == .on, !unasserted.isEmpty {
      reportTestFailure(
        """
        \(count(unasserted.count, "received action")) must be asserted before sending \
        \(readableActionDescription(action)):
        \(bulleted(unasserted.map { readableActionDescription($0.action) }))
        Assert them with receive(_:), or skip them with skipReceivedActions().
        """, at: site)
    }
    let marker = SendMarker(log: log, site: site, action: readableActionDescription(action))
    SendMarker.$current.withValue(marker) {
      store.dispatch(action, from: ActionSource(file: "\(fileID)", function: "send", line: line))
    }
    guard let processed = log.sentAction(of: marker) else {
      reportTestFailure(
        "The store did not process the sent action \(readableActionDescription(action)).", at: site)
      return
    }
    checkStateChange(processed, update: updateStateToExpectedResult, at: site)
  }

  // MARK: Receiving

  /// Asserts that the next received action equals `expected`, and checks the state right after
  /// it.
  ///
  /// ```swift
  /// // Setup: counter-store — the `store` of TestStore's example
  /// store.receive(CounterAction.factLoaded("1 is a number")) { $0.fact = "1 is a number" }
  /// ```
  ///
  /// With exhaustivity off, received actions before the first one equal to `expected` are
  /// skipped. The action must have been received already: use
  /// ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)`` to wait for
  /// one that an effect
  /// sends from another thread.
  public func receive<Action: StoreAction & Equatable>(
    _ expected: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    receive(
      matching: Self.equality(expected), expected: readableActionDescription(expected),
      update: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next received action is of type `type`, and checks the state right after
  /// it.
  ///
  /// ```swift
  /// // Setup: search-store — a TestStore of a search feature
  /// store.receive(SearchResponse.self) { $0.results = ["swift"] }
  /// ```
  public func receive<Action: StoreAction>(
    _ type: Action.Type,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    receive(
      matching: { $0 is Action }, expected: "an action of type \(Action.self)",
      update: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next received action is of type `type` and satisfies `predicate`, and
  /// checks the state right after it.
  ///
  /// ```swift
  /// // Setup: search-store — a TestStore of a search feature
  /// store.receive(SearchAction.self, where: { $0.isResponse }) { $0.results = ["swift"] }
  /// ```
  public func receive<Action: StoreAction>(
    _ type: Action.Type, where predicate: (Action) -> Bool,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    receive(
      matching: { ($0 as? Action).map(predicate) ?? false },
      expected: "an action of type \(Action.self) matching the predicate",
      update: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits up to `timeout` for an action equal to `expected` to be received (from an effect
  /// that runs on another thread), then asserts it like
  /// ``receive(_:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_)``.
  ///
  /// ```swift
  /// // Setup: counter-store — the `store` of TestStore's example
  /// await store.receive(CounterAction.factLoaded("1 is a number"), timeout: .seconds(1)) {
  ///   $0.fact = "1 is a number"
  /// }
  /// ```
  nonisolated(nonsending) public func receive<Action: StoreAction & Equatable>(
    _ expected: Action, timeout: Duration,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let matches = Self.equality(expected)
    let waited = await waitForReceived(matching: matches, timeout: timeout)
    receive(
      matching: matches, expected: readableActionDescription(expected),
      update: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      waited: waited)
  }

  /// Waits up to `timeout` for an action of type `type` to be received, then asserts it like
  /// ``receive(_:assert:fileID:filePath:line:column:)-(Action.Type,_,_,_,_,_)``.
  nonisolated(nonsending) public func receive<Action: StoreAction>(
    _ type: Action.Type, timeout: Duration,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let matches: (any StoreAction) -> Bool = { $0 is Action }
    let waited = await waitForReceived(matching: matches, timeout: timeout)
    receive(
      matching: matches, expected: "an action of type \(Action.self)",
      update: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      waited: waited)
  }

  /// Waits up to `timeout` for an action of type `type` that satisfies `predicate` to be
  /// received, then asserts it like
  /// ``receive(_:where:assert:fileID:filePath:line:column:)``.
  ///
  /// ```swift
  /// // Setup: search-store — a TestStore of a search feature
  /// await store.receive(SearchAction.self, where: { $0.isResponse }, timeout: .seconds(30))
  /// ```
  nonisolated(nonsending) public func receive<Action: StoreAction>(
    _ type: Action.Type, where predicate: (Action) -> Bool, timeout: Duration,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let waited = await waitForReceived(
      matching: { ($0 as? Action).map(predicate) ?? false }, timeout: timeout)
    receive(
      matching: { ($0 as? Action).map(predicate) ?? false },
      expected: "an action of type \(Action.self) matching the predicate",
      update: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      waited: waited)
  }

  /// Discards the received actions that the test has not asserted, so that the next send, or
  /// the end of the test, does not fail on them.
  public func skipReceivedActions() {
    log.clearReceived()
  }

  /// Stops tracking the effects in flight, so that the end of the test does not fail on them.
  /// They keep running until they end, or until the store is freed.
  public func skipInFlightEffects() {
    log.forgetRunningEffects()
  }

  // MARK: Finishing

  /// Checks the end of the test: with exhaustivity on, fails if received actions were not
  /// asserted, and reports each effect still running at the line of the send that started it,
  /// naming the action that started it.
  ///
  /// If the test does not call it, the same checks run when the test store is freed (at the
  /// line where it was created).
  public func finish(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    checkEnd(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits up to `timeout` for the effects in flight to end (effects that run on other
  /// threads), then checks the end of the test like ``finish(fileID:filePath:line:column:)``.
  nonisolated(nonsending) public func finish(
    timeout: Duration,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let log = self.log
    let outcome = await log.wait(timeout: timeout, watching: schedulers) {
      log.runningEffects.isEmpty
    }
    var stall: String?
    if case .stalled(let message) = outcome { stall = message }
    checkEnd(
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      stall: stall)
  }

  // MARK: Checks

  private static func equality<Action: StoreAction & Equatable>(_ expected: Action) -> (
    any StoreAction
  ) -> Bool {
    { ($0 as? Action) == expected }
  }

  /// How an `await` of `receive` waited: for how long at most, and whether it stopped early
  /// because a watched scheduler held work and nothing happened.
  private struct Waited {
    let timeout: Duration
    let stall: String?

    /// What follows "no action was received" in a failure.
    var ending: String {
      guard let stall else { return " within \(timeout)" }
      return " for \(readableDuration(TestStoreLog<State>.stallInterval)), and a test scheduler "
        + "holds work: \(stall)"
    }
  }

  nonisolated(nonsending) private func waitForReceived(
    matching matches: (any StoreAction) -> Bool, timeout: Duration
  ) async -> Waited {
    let log = self.log
    let exhaustive = exhaustivity == .on
    let outcome = await log.wait(timeout: timeout, watching: schedulers) {
      let pending = log.pendingReceived
      return exhaustive ? !pending.isEmpty : pending.contains { matches($0.action) }
    }
    guard case .stalled(let stall) = outcome else { return Waited(timeout: timeout, stall: nil) }
    return Waited(timeout: timeout, stall: stall)
  }

  private func receive(
    matching matches: (any StoreAction) -> Bool, expected: String,
    update: ((inout State) throws -> Void)?, at site: CallSite, waited: Waited? = nil
  ) {
    let within = waited?.ending ?? ""
    if exhaustivity == .off {
      let pending = log.pendingReceived
      guard let found = log.popReceived(firstMatching: matches) else {
        let received =
          pending.isEmpty
          ? "no action was received\(within)"
          : "none of the \(count(pending.count, "received action")) matched\(within):\n"
            + bulleted(pending.map { readableActionDescription($0.action) })
        reportTestFailure("Expected to receive \(expected), but \(received).", at: site)
        return
      }
      checkStateChange(found, update: update, at: site)
      return
    }
    guard let next = log.popReceived() else {
      reportTestFailure(
        "Expected to receive \(expected), but no action was received\(within).", at: site)
      return
    }
    guard matches(next.action) else {
      reportTestFailure(
        "Expected to receive \(expected), but received \(readableActionDescription(next.action)).",
        at: site)
      return
    }
    checkStateChange(next, update: update, at: site)
  }

  /// Compares the state after `processed` with the expected state.
  private func checkStateChange(
    _ processed: TestStoreLog<State>.Processed, update: ((inout State) throws -> Void)?,
    at site: CallSite
  ) {
    let action = readableActionDescription(processed.action)
    var expected = exhaustivity == .on ? processed.before : processed.after
    if let update {
      do {
        try update(&expected)
      } catch {
        reportTestFailure(
          "The state assertion for \(action) threw an error: \(error)", at: site)
        return
      }
    } else if exhaustivity == .off {
      return
    }
    let actual = processed.after
    if expected == actual {
      if exhaustivity == .on, update != nil, processed.before == actual {
        reportTestFailure(
          """
          Expected the state to change after \(action), but it did not change. \
          Omit the trailing closure if no change is expected.
          """, at: site)
      }
      return
    }
    let heading =
      update == nil
      ? "The state changed after \(action), but no change was asserted"
      : "The state after \(action) does not match the expectation"
    reportTestFailure(
      """
      \(heading) (− expected, + actual):
      \(stateDiff(expected: expected, actual: actual))
      """, at: site)
  }

  /// The end-of-test checks; `stall` says which watched scheduler holds work if an `await` of
  /// `finish` stopped waiting early.
  private func checkEnd(at site: CallSite, stall: String? = nil) {
    finished = true
    guard exhaustivity == .on else { return }
    let unasserted = log.clearReceived()
    if !unasserted.isEmpty {
      reportTestFailure(
        """
        \(count(unasserted.count, "received action")) \
        \(unasserted.count == 1 ? "was" : "were") not asserted by the end of the test:
        \(bulleted(unasserted.map { readableActionDescription($0.action) }))
        Assert them with receive(_:), or skip them with skipReceivedActions().
        """, at: site)
    }
    let advice =
      stall.map {
        "Nothing happened for \(readableDuration(TestStoreLog<State>.stallInterval)), and a "
          + "test scheduler holds work: \($0)."
      } ?? "Let it finish (advance its scheduler), cancel it, or call skipInFlightEffects()."
    for effect in log.runningEffects {
      reportTestFailure(
        """
        An effect is still running at the end of the test: \(effect.description), \
        started by \(describe(effect.cause)).
        \(advice)
        """, at: effect.cause.sentBy?.site ?? site)
    }
    log.forgetRunningEffects()
  }

  /// The action that started an effect, as messages name it.
  private func describe(_ cause: Cause) -> String {
    guard let marker = cause.sentBy else { return "the received action \(cause.action)" }
    if cause.isSent {
      return "the sent action \(cause.action) (\(marker.site.shortDescription))"
    }
    return
      "the received action \(cause.action) (caused by sending \(marker.action) at "
      + "\(marker.site.shortDescription))"
  }
}

/// `"1 received action"`, `"2 received actions"`.
private func count(_ number: Int, _ noun: String) -> String {
  "\(number) \(noun)\(number == 1 ? "" : "s")"
}

/// One `  • item` line per item.
private func bulleted(_ items: [String]) -> String {
  items.map { "  • \($0)" }.joined(separator: "\n")
}
