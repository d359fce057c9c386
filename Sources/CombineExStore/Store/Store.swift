import CombineEx

/// A small Redux-style store: one state, changed only by a reducer in response to actions,
/// with middlewares in front for side effects.
///
/// ```swift
/// struct Increment: StoreAction {}
/// struct IncrementLater: StoreAction {}
///
/// let store = Store(
///   reducer: { (count: inout Int, action: any StoreAction) in
///     if action is Increment { count += 1 }
///   },
///   state: 0,
///   middlewares: [createThunkMiddleware()])
/// let cancellable = store.statePublisher.sink { print("count: \($0)") }
/// // Prints: count: 0
/// store.dispatch(Increment())
/// // Prints: count: 1
/// store.dispatch(Thunk<Int> { dispatch, getState in
///   if getState() == 1 { dispatch(Increment()) }
/// })
/// // Prints: count: 2
/// ```
///
/// ## Processing
/// `dispatch(_:)` sends an action through the middlewares, first to last, then to the reducer,
/// then publishes the new state. Processing is serial and first-in first-out:
/// - A dispatch made outside any processing returns once that action, and every action it
///   caused synchronously, has been processed: `state` then reflects them all.
/// - A dispatch made during processing on the same thread (by a middleware, a thunk, a state
///   subscriber, a synchronous effect) is queued and processed right after the current action,
///   never interleaved with it. Such follow-ups are processed in the order they were dispatched.
/// - A dispatch from another thread while the store is processing waits its turn (threads are
///   served first-in first-out), then processes its action on its own thread. Nothing is lost.
///   Such a dispatch returns, like any other, only after its action has been through the
///   middlewares and the reducer and every `statePublisher` subscriber has received the new
///   state. Do not make code that runs inside processing wait synchronously for another
///   thread that dispatches to the same store: that thread waits for the processing to end
///   (like `DispatchQueue.sync` onto the current queue). For the same reason, two stores whose
///   state subscribers dispatch into each other, from two threads at once, deadlock.
///
/// No lock is held while reducers, middlewares or state subscribers run.
///
/// ## Lifetime
/// Middlewares receive `dispatch` and `getState` functions that hold the store weakly, so
/// work in flight never keeps a store alive: when its owner drops the store, it is freed, its
/// middlewares are released (which cancels the effects and retained publishers they keep), its
/// `dispatch` functions do nothing and `getState()` returns `nil`. The state publishers finish.
public final class Store<State> {
  /// The state, the reducer and the state subject, shared with the end of the middleware chain.
  @usableFromInline
  let core: StoreCore<State>

  /// The middleware chain, ending with the reducer.
  private let chain: Dispatch

  /// Serializes processing.
  private let processor = ActionProcessor()

  /// The store's table of effect runs by cancellation id, and of throttling states: the
  /// effects the store runs file their ids here, so that no other store can cancel them.
  package let cancellationRegistry: CancellationRegistry

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - reducer: Changes the state in response to each action that reaches it.
  ///   - state: The initial state.
  ///   - middlewares: The middlewares, in the order they see an action (the first one sees it
  ///     first). Each is called once, here.
  @inlinable
  public convenience init(
    reducer: @escaping Reducer<State>, state: State, middlewares: [Middleware<State>] = []
  ) {
    // Made here, in the caller's module, where `State` is known: the end of the chain runs the
    // reducer and publishes the state in code specialized for it, instead of generic code that
    // looks up the subject's types in the runtime's metadata cache at every action.
    let core = StoreCore(reducer: reducer, state: state)
    self.init(core: core, reduce: { action in core.reduce(action) }, middlewares: middlewares)
  }

  /// The designated initializer: `reduce` ends the middleware chain.
  @usableFromInline
  init(core: StoreCore<State>, reduce: @escaping Dispatch, middlewares: [Middleware<State>]) {
    let registry = CancellationRegistry()
    let reference = WeakStoreReference<State>()
    let dispatch: Dispatch = { action in
      // A source handed beside the action (by a retained publisher action) is taken even if
      // the store is gone, so that it never reaches a later dispatch.
      let source = HandedSource.take() ?? .unknown
      reference.store?.dispatch(action, from: source)
    }
    let getState: @Sendable () -> State? = { reference.store?.state }
    var next = reduce
    // Bound while the middlewares are made, so that an effect middleware finds this store's
    // cancellation table.
    ProcessingContext.bind(ProcessingContext(source: nil, registry: registry)) {
      for middleware in middlewares.reversed() {
        next = middleware(dispatch, getState, next)
      }
    }
    self.core = core
    cancellationRegistry = registry
    self.chain = next
    reference.store = self
  }

  deinit {
    core.subject.send(completion: .finished)
  }

  /// The current state: the state after the last action that reached the reducer.
  ///
  /// Safe to read from any thread, and from inside a reducer's caller, a middleware or a state
  /// subscriber.
  public var state: State {
    core.subject.value
  }

  /// Publishes the current state at once, then the state after every action that reaches the
  /// reducer, changed or not. It never fails; it finishes when the store is freed.
  ///
  /// States arrive in processing order, one at a time, on the thread that processed the action,
  /// before its `dispatch` returns. Subscribing from another thread while a state is being
  /// published waits for that delivery to end (the current state is then replayed on the
  /// subscribing thread). The publisher does not keep the store alive.
  ///
  /// ```swift
  /// struct Noop: StoreAction {}
  ///
  /// let store = Store(reducer: { (_: inout Int, _: any StoreAction) in }, state: 7)
  /// let cancellable = store.statePublisher.sink { print($0) }  // Prints: 7
  /// store.dispatch(Noop())  // Prints: 7 — every action that reaches the reducer
  /// ```
  public var statePublisher: AnyPublisher<State, Never> {
    core.subject.eraseToAnyPublisher()
  }

  /// Publishes a part of the state: its current value at once, then every change.
  ///
  /// Equal consecutive values are published once, so a subscriber hears about its part only
  /// when it changes.
  ///
  /// ```swift
  /// struct Rename: StoreAction { let name: String }
  /// struct Profile { var name = "Ada"; var visits = 0 }
  ///
  /// let store = Store(
  ///   reducer: { (profile: inout Profile, action: any StoreAction) in
  ///     profile.visits += 1
  ///     if let rename = action as? Rename { profile.name = rename.name }
  ///   },
  ///   state: Profile())
  /// let cancellable = store.publisher(for: \.name).sink { print($0) }  // Prints: Ada
  /// store.dispatch(Rename(name: "Ada"))  // (unchanged: nothing printed)
  /// store.dispatch(Rename(name: "Grace"))  // Prints: Grace
  /// ```
  public func publisher<Value: Equatable>(for keyPath: KeyPath<State, Value>)
    -> AnyPublisher<Value, Never>
  {
    core.subject.map(keyPath).removeDuplicates().eraseToAnyPublisher()
  }

  /// Publishes a value derived from the state: its current value at once, then every change.
  ///
  /// Equal consecutive values are published once.
  ///
  /// ```swift
  /// struct Add: StoreAction { let amount: Int }
  ///
  /// let store = Store(
  ///   reducer: { (count: inout Int, action: any StoreAction) in
  ///     count += (action as? Add)?.amount ?? 0
  ///   },
  ///   state: 1)
  /// let cancellable = store.publisher { $0.isMultiple(of: 2) }.sink { print($0) }
  /// // Prints: false
  /// store.dispatch(Add(amount: 2))  // 3: still odd, nothing printed
  /// store.dispatch(Add(amount: 1))  // Prints: true
  /// ```
  public func publisher<Value: Equatable>(for transform: @escaping (State) -> Value)
    -> AnyPublisher<Value, Never>
  {
    core.subject.map(transform).removeDuplicates().eraseToAnyPublisher()
  }

  /// Sends an action through the middlewares to the reducer, and records the call site as the
  /// action's ``ActionSource``.
  ///
  /// Call it as `store.dispatch(action)`. It may be called from any thread. Called outside any
  /// processing, it returns once the action and everything it caused synchronously has been
  /// processed; called during processing on the same thread, it queues the action right after
  /// the current one; called from another thread while the store is processing, it waits its
  /// turn. See the type's documentation.
  public func dispatch(
    _ action: any StoreAction, file: String = #fileID, function: String = #function,
    line: UInt = #line
  ) {
    dispatch(action, from: ActionSource(file: file, function: function, line: line))
  }

  /// Sends an action with an explicit source.
  ///
  /// An action wrapped by a thunk, a publisher action or an effect middleware keeps the source
  /// it was wrapped with.
  public func dispatch(_ action: any StoreAction, from source: ActionSource) {
    let item =
      if let sourced = SourcedAction.unwrap(action) {
        QueuedAction(action: sourced.action, source: sourced.source)
      } else {
        QueuedAction(action: action, source: source)
      }
    let registry = cancellationRegistry
    processor.submit(item) { item in
      ProcessingContext.bind(ProcessingContext(source: item.source, registry: registry)) {
        chain(item.action)
      }
    }
  }
}

extension Store: @unchecked Sendable where State: Sendable {
  // @unchecked Sendable: every stored property is immutable; `core.subject` is thread-safe and
  // the reducer and the chain are only called by the thread that owns `processor`, one action
  // at a time.
}

/// What the end of the middleware chain needs: the reducer and the state subject.
///
/// Inlinable, so that ``Store/init(reducer:state:middlewares:)`` specializes ``reduce(_:)``
/// for the store's state in the caller's module.
@usableFromInline
final class StoreCore<State>: @unchecked Sendable {
  // @unchecked Sendable: `reducer` is only called by the thread processing the store's actions,
  // one action at a time; `subject` is thread-safe.
  @usableFromInline
  let reducer: Reducer<State>
  @usableFromInline
  let subject: CurrentValueSubject<State, Never>

  @inlinable
  init(reducer: @escaping Reducer<State>, state: State) {
    self.reducer = reducer
    subject = CurrentValueSubject(state)
  }

  /// Runs the reducer on the current state, stores the result and publishes it.
  @inlinable
  func reduce(_ action: any StoreAction) {
    var state = subject.value
    reducer(&state, action)
    subject.send(state)
  }
}

/// The weak reference to a store that its middlewares' `dispatch` and `getState` hold.
private final class WeakStoreReference<State>: @unchecked Sendable {
  // @unchecked Sendable: `store` is written once, before the store is handed to anyone, and
  // weak references are loaded atomically by the runtime.
  weak var store: Store<State>?
}
