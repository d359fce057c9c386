import CombineEx

/// The middleware that runs ``PublisherAction``s and ``RetainedPublisherAction``s, and keeps
/// the pipelines of retained ones until they end.
///
/// ```swift
/// struct Loaded: StoreAction { let value: Int }
///
/// let publishers = PublisherMiddleware<Int>()
/// let store = Store(
///   reducer: { (value: inout Int, action: any StoreAction) in
///     if let loaded = action as? Loaded { value = loaded.value }
///   },
///   state: 0,
///   middlewares: [publishers.middleware])
/// let response = PassthroughSubject<Int, Never>()
/// store.dispatch(RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
///   response.handleCleanup(cleanup)
///     .sink { dispatch(Loaded(value: $0)) }
///     .store(in: &cancellables)
/// })
/// print(publishers.retainedDispatchCount)  // Prints: 1
/// response.send(completion: .finished)
/// print(publishers.retainedDispatchCount)  // Prints: 0
/// ```
///
/// Keep the instance to watch ``retainedDispatchCount`` (tests do); otherwise
/// ``createPublisherMiddleware()`` is shorter. Both actions, when their `State` is the store's,
/// go no further than this middleware: they never reach the reducer. Every other action passes
/// on down. The retention rules are described on ``RetainedPublisherAction``.
///
/// Each store the ``middleware`` is installed in keeps its own pipelines: when a store is freed,
/// the pipelines retained for it are cancelled and released.
public final class PublisherMiddleware<State>: Sendable {
  private let book = RetentionBook()

  /// Creates a publisher middleware with nothing retained.
  public init() {}

  /// How many dispatches of ``RetainedPublisherAction`` currently have pipelines retained.
  public var retainedDispatchCount: Int {
    book.retainedDispatchCount
  }

  /// The middleware to install in a ``Store``.
  public var middleware: Middleware<State> {
    { [book] dispatch, getState, next in
      let attachment = RetentionBook.Attachment(book: book)
      // The two types, looked up once per store: an action of any other type (most of them)
      // is told apart by comparing types, with no metadata look-up or dynamic cast (this code
      // is generic, so naming `PublisherAction<State>` looks it up in the runtime's cache). Both
      // are exact types (a final class, a struct), so the comparison decides as the cast would.
      let publisherActionType = ObjectIdentifier(PublisherAction<State>.self)
      let retainedActionType = ObjectIdentifier(RetainedPublisherAction<State>.self)
      return { action in
        let actionType = ObjectIdentifier(type(of: action))
        if actionType == publisherActionType, let action = action as? PublisherAction<State> {
          action.run(dispatch: dispatch, getState: getState)
        } else if actionType == retainedActionType,
          let action = action as? RetainedPublisherAction<State>
        {
          attachment.run(action, dispatch: dispatch, getState: getState)
        } else {
          next(action)
        }
      }
    }
  }
}

/// Creates a publisher middleware: `PublisherMiddleware<State>().middleware`.
///
/// ```swift
/// struct Tick: StoreAction {}
///
/// let store = Store(
///   reducer: { (count: inout Int, action: any StoreAction) in
///     if action is Tick { count += 1 }
///   },
///   state: 0,
///   middlewares: [createPublisherMiddleware()])
/// store.dispatch(RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
///   [1, 2, 3].publisher
///     .handleCleanup(cleanup)
///     .sink { _ in dispatch(Tick()) }
///     .store(in: &cancellables)
/// })
/// print(store.state)  // Prints: 3
/// ```
public func createPublisherMiddleware<State>() -> Middleware<State> {
  PublisherMiddleware<State>().middleware
}
