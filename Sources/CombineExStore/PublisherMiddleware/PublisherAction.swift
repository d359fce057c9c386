import CombineEx

/// An action that starts Combine pipelines and keeps their cancellables itself: the pipelines
/// live as long as you keep the action.
///
/// The publisher middleware runs the body with an empty set of cancellables; whatever the body
/// stores in it is kept by the action. Dropping the action (for example when the screen that
/// started the work goes away), or calling ``cancel()``, cancels the pipelines. Use
/// ``RetainedPublisherAction`` when the work should run to its end whoever keeps the action.
///
/// ```swift
/// struct Tick: StoreAction {}
///
/// let ticks = PassthroughSubject<Void, Never>()
/// let store = Store(
///   reducer: { (count: inout Int, action: any StoreAction) in
///     if action is Tick { count += 1 }
///   },
///   state: 0,
///   middlewares: [createPublisherMiddleware()])
/// var watch: PublisherAction<Int>? = PublisherAction { dispatch, _, cancellables in
///   ticks.sink { dispatch(Tick()) }.store(in: &cancellables)
/// }
/// store.dispatch(watch!)
/// ticks.send()
/// watch = nil  // cancels the pipeline
/// ticks.send()
/// print(store.state)  // Prints: 1
/// ```
///
/// The action never reaches the reducer. Dispatching it again runs the body again and keeps the
/// new cancellables too. Actions the body dispatches carry, as their ``ActionSource``, the place
/// where the action was created.
public final class PublisherAction<State>: StoreAction, @unchecked Sendable {
  // @unchecked Sendable: `cancellables` is guarded by `lock`; `body` is only called by the
  // publisher middleware while the store processes this action, one call at a time.

  /// The body's type: it receives `dispatch`, `getState` and the set to store cancellables in.
  public typealias Body = (
    _ dispatch: @escaping Dispatch,
    _ getState: @escaping @Sendable () -> State?,
    _ cancellables: inout Set<AnyCancellable>
  ) -> Void

  private let lock = Lock()
  private var storedCancellables: Set<AnyCancellable> = []
  private let body: Body

  /// Where the action was created.
  public let source: ActionSource

  /// Creates the action. The call site is recorded as the source of the actions it dispatches.
  public init(
    file: String = #fileID, function: String = #function, line: UInt = #line,
    _ body: @escaping Body
  ) {
    self.body = body
    source = ActionSource(file: file, function: function, line: line, info: "publisher action")
  }

  /// The cancellables the action keeps.
  public var cancellables: Set<AnyCancellable> {
    lock.withLock { storedCancellables }
  }

  /// Cancels and releases every pipeline the action keeps.
  public func cancel() {
    let released = lock.withLock { () -> Set<AnyCancellable> in
      defer { storedCancellables = [] }
      return storedCancellables
    }
    for cancellable in released {
      cancellable.cancel()
    }
  }

  /// Runs the body and keeps what it stored.
  func run(dispatch: @escaping Dispatch, getState: @escaping @Sendable () -> State?) {
    let source = self.source
    var cancellables = Set<AnyCancellable>()
    body({ dispatch(SourcedAction.wrap($0, source: source)) }, getState, &cancellables)
    guard !cancellables.isEmpty else { return }
    lock.withLock { storedCancellables.formUnion(cancellables) }
  }
}

extension PublisherAction: CustomStringConvertible {
  /// The kind of action and the place where it was created: `PublisherAction (Search.swift:42)`, as
  /// logs and test messages show it.
  public var description: String {
    "PublisherAction (\(source.fileAndLine))"
  }
}
