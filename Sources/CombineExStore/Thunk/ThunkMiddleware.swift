/// Creates the middleware that runs ``Thunk``s.
///
/// A `Thunk<State>` (with the store's `State`) is run and goes no further: it never reaches the
/// reducer or later middlewares. Every other action, including a thunk written for another
/// state type, passes on down untouched.
///
/// ```swift
/// struct Loaded: StoreAction { let names: [String] }
///
/// let store = Store(
///   reducer: { (names: inout [String], action: any StoreAction) in
///     if let loaded = action as? Loaded { names = loaded.names }
///   },
///   state: [],
///   middlewares: [createThunkMiddleware()])
/// store.dispatch(Thunk<[String]> { dispatch, _ in
///   dispatch(Loaded(names: ["Ada", "Grace"]))
/// })
/// print(store.state)  // Prints: ["Ada", "Grace"]
/// ```
public func createThunkMiddleware<State>() -> Middleware<State> {
  { dispatch, getState, next in
    { action in
      if let thunk = action as? Thunk<State> {
        thunk.run(dispatch: dispatch, getState: getState)
      } else {
        next(action)
      }
    }
  }
}
