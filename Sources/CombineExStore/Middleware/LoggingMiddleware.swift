/// Creates a middleware that logs every action it sees and, once the action has gone down the
/// rest of the chain, the state.
///
/// Put it first to log every action (thunks and publisher actions included), or after the
/// thunk and publisher middlewares to log only the actions that reach the reducer.
///
/// Values are written as Swift's `print` writes them, without the module names Swift puts
/// before the types of nested values (`Result<Array<String>, SearchFailure>.success(["a"])`,
/// not `Swift.Result<Swift.Array<Swift.String>, App.SearchFailure>.success(["a"])`). An enum
/// action is preceded by its type (`SearchAction.queryChanged("s")`); a thunk or a publisher
/// action is written as its kind and the place where it was created
/// (`RetainedPublisherAction (Search.swift:42)`).
///
/// ```swift
/// struct Increment: StoreAction {}
///
/// let store = Store(
///   reducer: { (count: inout Int, action: any StoreAction) in
///     if action is Increment { count += 1 }
///   },
///   state: 0,
///   middlewares: [createLoggingMiddleware()])
/// store.dispatch(Increment())
/// // Prints: [store] action: Increment()
/// // Prints: [store] state: 1
/// ```
///
/// - Parameters:
///   - prefix: Starts every line.
///   - logsState: Whether to log the state after each action.
///   - log: Receives each line; `print` by default. It is called while the store processes, so
///     keep it quick.
public func createLoggingMiddleware<State>(
  prefix: String = "[store]",
  logsState: Bool = true,
  log: @escaping @Sendable (String) -> Void = { print($0) }
) -> Middleware<State> {
  { _, getState, next in
    { action in
      log("\(prefix) action: \(readableActionDescription(action))")
      next(action)
      if logsState, let state = getState() {
        log("\(prefix) state: \(readableDescription(of: state))")
      }
    }
  }
}
