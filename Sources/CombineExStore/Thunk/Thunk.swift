/// An action that is a piece of work: the thunk middleware runs its body instead of passing it
/// to the reducer.
///
/// The body receives `dispatch`, to send actions (at once or later, from any thread), and
/// `getState`, to read the store's current state (`nil` once the store is gone).
///
/// ```swift
/// struct Increment: StoreAction {}
///
/// let store = Store(
///   reducer: { (count: inout Int, action: any StoreAction) in
///     if action is Increment { count += 1 }
///   },
///   state: 0,
///   middlewares: [createThunkMiddleware()])
/// let incrementIfEven = Thunk<Int> { dispatch, getState in
///   if let count = getState(), count.isMultiple(of: 2) { dispatch(Increment()) }
/// }
/// store.dispatch(incrementIfEven)
/// store.dispatch(incrementIfEven)
/// print(store.state)  // Prints: 1
/// ```
///
/// The body runs while the store processes the thunk, on that thread; the actions it dispatches
/// synchronously are processed right after it, in order. A thunk only runs in a store whose
/// state type is `State`; any other store's thunk middleware passes it on untouched.
///
/// Actions the body dispatches carry, as their ``ActionSource``, the place where the thunk was
/// created.
public struct Thunk<State>: StoreAction {
  /// The body's type: it receives `dispatch` and `getState`.
  public typealias Body = (
    _ dispatch: @escaping Dispatch, _ getState: @escaping @Sendable () -> State?
  ) -> Void

  /// The work.
  public let body: Body

  /// Where the thunk was created.
  public let source: ActionSource

  /// Creates a thunk. The call site is recorded as the source of the actions it dispatches.
  public init(
    file: String = #fileID, function: String = #function, line: UInt = #line,
    _ body: @escaping Body
  ) {
    self.body = body
    source = ActionSource(file: file, function: function, line: line, info: "thunk")
  }

  /// Runs the body with a `dispatch` that records the thunk's source.
  func run(dispatch: @escaping Dispatch, getState: @escaping @Sendable () -> State?) {
    let source = self.source
    body({ action in dispatch(SourcedAction.wrap(action, source: source)) }, getState)
  }
}

extension Thunk: CustomStringConvertible {
  /// The kind of action and the place where it was created: `Thunk (Search.swift:42)`, as
  /// logs and test messages show it.
  public var description: String {
    "Thunk (\(source.fileAndLine))"
  }
}
