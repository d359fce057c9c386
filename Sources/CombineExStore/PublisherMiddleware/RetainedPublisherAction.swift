import CombineEx

/// An action that starts Combine pipelines whose cancellables the publisher middleware keeps
/// until each pipeline has ended: you do not need to keep the action.
///
/// The body receives an empty set of cancellables and a `cleanup` function. End every pipeline
/// you store with ``CombineExCore/Publisher/handleCleanup(_:)`` right before its subscriber
/// (`sink`, `assign`), so that `cleanup` is called once when the pipeline finishes, fails or is
/// cancelled:
///
/// ```swift
/// struct Loaded: StoreAction { let value: Int }
///
/// let response = PassthroughSubject<Int, Never>()
/// let publishers = PublisherMiddleware<Int>()
/// let store = Store(
///   reducer: { (value: inout Int, action: any StoreAction) in
///     if let loaded = action as? Loaded { value = loaded.value }
///   },
///   state: 0,
///   middlewares: [publishers.middleware])
/// store.dispatch(RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
///   response
///     .handleCleanup(cleanup)
///     .sink { dispatch(Loaded(value: $0)) }
///     .store(in: &cancellables)
/// })
/// print(publishers.retainedDispatchCount)  // Prints: 1
/// response.send(42)
/// response.send(completion: .finished)
/// print(store.state, publishers.retainedDispatchCount)  // Prints: 42 0
/// ```
///
/// ## Retention rules
/// - The middleware keeps the stored cancellables until `cleanup()` has been called once per
///   stored cancellable (one per pipeline), then releases them all.
/// - A body that stores nothing retains nothing; pipelines that end synchronously inside the
///   body (their `cleanup()` runs before the body returns) net to zero.
/// - Each dispatch counts on its own: extra `cleanup()` calls are harmless and never release
///   another dispatch's pipelines.
/// - Everything is thread-safe: pipelines may end on any thread.
/// - When the store is freed, the pipelines it still retains are cancelled.
///
/// A cancellable stored without `handleCleanup` is kept until the store is freed (or until the
/// other pipelines' cleanups reach the count), so give every stored pipeline its cleanup.
/// The action never reaches the reducer. Actions the body dispatches carry, as their
/// ``ActionSource``, the place where the action was created.
public struct RetainedPublisherAction<State>: StoreAction {
  /// The body's type: it receives `dispatch`, `getState`, the set to store cancellables in, and
  /// the `cleanup` to call once per stored pipeline when it ends.
  public typealias Body = (
    _ dispatch: @escaping Dispatch,
    _ getState: @escaping @Sendable () -> State?,
    _ cancellables: inout Set<AnyCancellable>,
    _ cleanup: @escaping @Sendable () -> Void
  ) -> Void

  /// The work.
  public let body: Body

  /// Where the action was created.
  public let source: ActionSource

  /// Creates the action. The call site is recorded as the source of the actions it dispatches.
  public init(
    file: String = #fileID, function: String = #function, line: UInt = #line,
    _ body: @escaping Body
  ) {
    self.body = body
    source = ActionSource(
      file: file, function: function, line: line, info: "retained publisher action")
  }
}

extension RetainedPublisherAction: CustomStringConvertible {
  /// The kind of action and the place where it was created: `RetainedPublisherAction (Search.swift:42)`, as
  /// logs and test messages show it.
  public var description: String {
    "RetainedPublisherAction (\(source.fileAndLine))"
  }
}
