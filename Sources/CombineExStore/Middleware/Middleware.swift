/// Sits between `dispatch` and the reducer: sees every action, and decides what to do with it.
///
/// A store calls each middleware once, when it is created, with three functions, and keeps the
/// ``Dispatch`` the middleware returns:
/// - `dispatch` sends an action to the store from the top of the chain (the first middleware
///   sees it first). Use it for new actions: results of work, follow-ups.
/// - `getState` reads the store's current state; it returns `nil` once the store is gone.
/// - `next` passes an action to the next middleware, and after the last one to the reducer.
///   A middleware that does not call `next` swallows the action (a thunk middleware does that
///   with thunks).
///
/// The first middleware in the store's array sees an action first. `dispatch` and `getState`
/// hold the store weakly, so a middleware (and the work it starts) never keeps its store alive.
/// The returned function is called by the store while it processes an action, one action at a
/// time; actions it dispatches while doing so are processed after the current one.
///
/// ```swift
/// struct Ping: StoreAction {}
/// struct Pong: StoreAction {}
///
/// // Answers every Ping with a Pong, after the Ping has reached the reducer.
/// let pingPong: Middleware<[String]> = { dispatch, getState, next in
///   { action in
///     next(action)
///     if action is Ping { dispatch(Pong()) }
///   }
/// }
/// let store = Store(
///   reducer: { (log: inout [String], action: any StoreAction) in
///     log.append("\(type(of: action))")
///   },
///   state: [], middlewares: [pingPong])
/// store.dispatch(Ping())
/// print(store.state)  // Prints: ["Ping", "Pong"]
/// ```
public typealias Middleware<State> = (
  _ dispatch: @escaping Dispatch,
  _ getState: @escaping @Sendable () -> State?,
  _ next: @escaping Dispatch
) -> Dispatch
