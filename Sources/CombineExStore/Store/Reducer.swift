/// Changes the state in response to an action: the only place where a ``Store``'s state
/// changes.
///
/// A reducer receives every action that reaches the end of the middleware chain, in dispatch
/// order, one at a time, on the thread that processes it. It should be a pure function of its
/// inputs: side effects belong in middlewares, thunks and effects. An action a reducer does not
/// handle leaves the state as it was.
///
/// ```swift
/// struct Increment: StoreAction {}
///
/// let reducer: Reducer<Int> = { count, action in
///   if action is Increment { count += 1 }
/// }
/// var count = 0
/// reducer(&count, Increment())
/// print(count)  // Prints: 1
/// ```
public typealias Reducer<State> = (_ state: inout State, _ action: any StoreAction) -> Void

/// Combines reducers into one that runs them in order, each on the state the previous one left.
///
/// ```swift
/// struct Tap: StoreAction {}
///
/// let reducer: Reducer<[String]> = combineReducers(
///   { log, action in if action is Tap { log.append("first") } },
///   { log, action in if action is Tap { log.append("second") } })
/// var log: [String] = []
/// reducer(&log, Tap())
/// print(log)  // Prints: ["first", "second"]
/// ```
///
/// With no reducers, the result leaves the state unchanged.
public func combineReducers<State>(_ reducers: Reducer<State>...) -> Reducer<State> {
  { state, action in
    for reducer in reducers {
      reducer(&state, action)
    }
  }
}
