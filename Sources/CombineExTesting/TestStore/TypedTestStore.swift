import CombineExStore
import Testing

/// A ``TestStore`` for a feature with one action type: `send` and `receive` take that type, so
/// actions are written with leading-dot syntax, and in an `async` test they are awaited, TCA
/// style, with a default timeout.
///
/// ```swift
/// struct Search: Equatable { var query = ""; var results: [String] = [] }
/// enum SearchAction: StoreAction, Equatable {
///   case queryChanged(String), response([String])
/// }
///
/// let effects = EffectMiddleware<SearchAction, SearchAction, Search, Void>.onAction {
///   action, _, _ in
///   guard case .queryChanged(let query) = action else { return .doNothing }
///   return .run { send in send(.response([query.uppercased()])) }
/// }
/// let store = TypedTestStore(
///   reducer: { (state: inout Search, action: any StoreAction) in
///     switch action as? SearchAction {
///     case .queryChanged(let query)?: state.query = query
///     case .response(let results)?: state.results = results
///     case nil: break
///     }
///   },
///   state: Search(), action: SearchAction.self, middlewares: [effects.asMiddleware()])
/// await store.send(.queryChanged("swift")) { $0.query = "swift" }
/// await store.receive(.response(["SWIFT"])) { $0.results = ["SWIFT"] }
/// await store.finish()
/// ```
///
/// It checks exactly what a ``TestStore`` checks (it drives one), with these differences:
/// - `send(_:assert:fileID:filePath:line:column:)` takes an `Action` (with leading-dot
///   syntax), or any other `StoreAction` (a thunk, a `RetainedPublisherAction`), and
///   `receive(_:assert:fileID:filePath:line:column:)` an `Action` value (when `Action` is
///   `Equatable`). Received actions of other types are asserted by type, with
///   ``receive(_:assert:fileID:filePath:line:column:)-(Received.Type,_,_,_,_,_)`` and
///   ``receive(_:where:assert:fileID:filePath:line:column:)``.
/// - Every method has an `async` form. In an `async` function, Swift picks it, so the calls are
///   written with `await` (leaving `await` out is a compile error, as in TCA 1.x):
///   `await store.send(...)` returns once the store has processed the action (the reducer and
///   every middleware) and does not wait for effects; `await store.receive(...)` and
///   `await store.finish()` wait for an effect running on another thread, up to ``timeout``
///   (30 seconds unless changed), and fail the test if it has not delivered by then.
/// - In a synchronous test, the synchronous forms are used, as with ``TestStore``.
///
/// A store whose feature mixes action types keeps using ``TestStore`` (actions as
/// `any StoreAction`).
public final class TypedTestStore<State: Equatable, Action: StoreAction> {
  /// How strictly the store checks what the test did not assert (``TestStore/Exhaustivity-swift.enum``).
  public typealias Exhaustivity = TestStore<State>.Exhaustivity

  /// The timeout a new typed test store starts with: 30 seconds, like
  /// ``TestSubscriber/defaultTimeout``. It guards against a hang; it does not measure latency
  /// (a loaded machine running tests in parallel can keep a task waiting for seconds).
  public static var defaultTimeout: Duration { .seconds(30) }

  /// How long the `async` forms of `receive(_:timeout:assert:fileID:filePath:line:column:)`
  /// and ``finish(timeout:fileID:filePath:line:column:)`` wait when they are given no
  /// `timeout`.
  public var timeout: Duration

  /// How strictly the store checks what the test did not assert: `.on` (the default) or `.off`,
  /// as for ``TestStore/exhaustivity-swift.property``. It may be changed at any point of a test.
  public var exhaustivity: Exhaustivity {
    get { store.exhaustivity }
    set { store.exhaustivity = newValue }
  }

  private let store: TestStore<State>

  /// Creates a typed test store around a new `Store` made from `reducer`, `state` and
  /// `middlewares`, whose tests send and receive actions of type `action`.
  ///
  /// - Parameters:
  ///   - reducer: The reducer under test.
  ///   - state: The initial state.
  ///   - action: The feature's action type (`SearchAction.self`). It may be left out when the
  ///     type is written elsewhere (`TypedTestStore<Search, SearchAction>(...)`).
  ///   - middlewares: The middlewares, as the store would get them. Give time-based ones a
  ///     `TestScheduler`.
  ///   - exhaustivity: `.on` (the default) or `.off`.
  ///   - timeout: How long the `async` forms wait when given no timeout (``timeout``).
  ///   - schedulers: The test schedulers the effects use: an `await` of `receive` or `finish`
  ///     fails at once when one of them holds work and nothing has happened for 200 ms (the
  ///     test forgot to advance it), as for ``TestStore``'s `schedulers:`.
  ///   - fileID: Where the end-of-life checks are reported if the test never calls
  ///     ``finish(fileID:filePath:line:column:)``.
  ///   - filePath: See `fileID`.
  ///   - line: See `fileID`.
  ///   - column: See `fileID`.
  public init(
    reducer: @escaping Reducer<State>, state: State, action: Action.Type = Action.self,
    middlewares: [Middleware<State>] = [], exhaustivity: Exhaustivity = .on,
    timeout: Duration = defaultTimeout, schedulers: [any ManuallyAdvancedScheduler] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    self.timeout = timeout
    store = TestStore(
      reducer: reducer, state: state, middlewares: middlewares, exhaustivity: exhaustivity,
      schedulers: schedulers, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  // MARK: State and what is pending

  /// The store's current state.
  public var state: State {
    store.state
  }

  /// The actions received (dispatched by effects, thunks or middlewares) that the test has not
  /// asserted yet, oldest first.
  public var receivedActions: [any StoreAction] {
    store.receivedActions
  }

  /// The effects in flight, each described with the action that started it.
  public var runningEffects: [String] {
    store.runningEffects
  }

  // MARK: Sending

  /// Sends an action to the store and checks the state right after it, as
  /// ``TestStore/send(_:assert:fileID:filePath:line:column:)`` does.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// store.send(.queryChanged("swift")) { $0.query = "swift" }
  /// ```
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    store.send(
      action, assert: updateStateToExpectedResult, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Sends an action to the store and checks the state right after it: the `await` form of
  /// ``send(_:assert:fileID:filePath:line:column:)``.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// await store.send(.queryChanged("swift")) { $0.query = "swift" }
  /// ```
  ///
  /// It returns once the store has processed the action: the reducer and every middleware have
  /// run, and so has everything the action caused synchronously. It does not wait for effects:
  /// the actions they send later are asserted with `await store.receive(...)`.
  nonisolated(nonsending) public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    store.send(
      action, assert: updateStateToExpectedResult, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Sends an action of any other type (a `Thunk`, a `PublisherAction` or
  /// `RetainedPublisherAction`, another feature's action) and checks the state right after it,
  /// as ``TestStore/send(_:assert:fileID:filePath:line:column:)`` does.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// store.send(Thunk<Search> { dispatch, _ in dispatch(SearchAction.queryChanged("swift")) })
  /// store.receive(.queryChanged("swift")) { $0.query = "swift" }
  /// ```
  ///
  /// The feature's own actions keep their leading-dot syntax: `send(.queryChanged("swift"))`
  /// picks the `Action` form (this one is a disfavored overload).
  @_disfavoredOverload
  public func send(
    _ action: any StoreAction,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    store.send(
      action, assert: updateStateToExpectedResult, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Sends an action of any other type and checks the state right after it: the `await` form
  /// of the synchronous one, returning once the store has processed the action.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// await store.send(RetainedPublisherAction<Search> { dispatch, _, cancellables, cleanup in
  ///   // start a pipeline that dispatches SearchAction values
  /// })
  /// ```
  @_disfavoredOverload
  nonisolated(nonsending) public func send(
    _ action: any StoreAction,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    store.send(
      action, assert: updateStateToExpectedResult, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  // MARK: Receiving

  /// Asserts that the next received action equals `expected`, and checks the state right after
  /// it, as ``TestStore/receive(_:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_)``
  /// does. The action must have been received already.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// store.receive(.response(["SWIFT"])) { $0.results = ["SWIFT"] }
  /// ```
  public func receive(
    _ expected: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) where Action: Equatable {
    store.receive(
      expected, assert: updateStateToExpectedResult, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Waits up to `timeout` (``timeout`` if `nil`) for an action equal to `expected` to be
  /// received, then asserts it like `receive(_:assert:fileID:filePath:line:column:)`.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// await store.receive(.response(["SWIFT"])) { $0.results = ["SWIFT"] }
  /// ```
  ///
  /// An action received already is asserted at once. With exhaustivity on, the wait ends at the
  /// first received action, which must be `expected`.
  nonisolated(nonsending) public func receive(
    _ expected: Action, timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await store.receive(
      expected, timeout: timeout ?? self.timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the next received action is of type `type` (the feature's or another), and
  /// checks the state right after it.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// store.receive(AnalyticsEvent.self)
  /// ```
  public func receive<Received: StoreAction>(
    _ type: Received.Type,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    store.receive(
      type, assert: updateStateToExpectedResult, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Waits up to `timeout` (``timeout`` if `nil`) for an action of type `type` to be received,
  /// then asserts it like ``receive(_:assert:fileID:filePath:line:column:)-(Received.Type,_,_,_,_,_)``.
  nonisolated(nonsending) public func receive<Received: StoreAction>(
    _ type: Received.Type, timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    await store.receive(
      type, timeout: timeout ?? self.timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the next received action is of type `type` and satisfies `predicate`, and
  /// checks the state right after it.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// store.receive(SearchAction.self, where: { $0.isResponse }) { $0.results = ["SWIFT"] }
  /// ```
  public func receive<Received: StoreAction>(
    _ type: Received.Type, where predicate: (Received) -> Bool,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    store.receive(
      type, where: predicate, assert: updateStateToExpectedResult, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Waits up to `timeout` (``timeout`` if `nil`) for an action of type `type` that satisfies
  /// `predicate`, then asserts it like ``receive(_:where:assert:fileID:filePath:line:column:)``.
  nonisolated(nonsending) public func receive<Received: StoreAction>(
    _ type: Received.Type, where predicate: (Received) -> Bool, timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    await store.receive(
      type, where: predicate, timeout: timeout ?? self.timeout,
      assert: updateStateToExpectedResult, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Discards the received actions that the test has not asserted.
  public func skipReceivedActions() {
    store.skipReceivedActions()
  }

  /// Stops tracking the effects in flight, so that the end of the test does not fail on them.
  public func skipInFlightEffects() {
    store.skipInFlightEffects()
  }

  // MARK: Finishing

  /// Checks the end of the test, as ``TestStore/finish(fileID:filePath:line:column:)`` does:
  /// with exhaustivity on, unasserted received actions and effects still running fail it.
  public func finish(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    store.finish(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Waits up to `timeout` (``timeout`` if `nil`) for the effects in flight to end, then checks
  /// the end of the test like ``finish(fileID:filePath:line:column:)``.
  ///
  /// ```swift
  /// // Setup: typed-search-store — the `store` of TypedTestStore's example
  /// await store.finish()
  /// ```
  nonisolated(nonsending) public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    await store.finish(
      timeout: timeout ?? self.timeout, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }
}
