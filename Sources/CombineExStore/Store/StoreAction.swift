/// Marks a type as an action a ``Store`` can dispatch.
///
/// The protocol has no requirements: any struct, enum or class can be an action. It is named
/// `StoreAction` so that it never clashes with CombineEx's `Action` (a factory of cold runs).
///
/// ```swift
/// enum CounterAction: StoreAction {
///   case increment
///   case add(Int)
/// }
///
/// let store = Store(reducer: { (count: inout Int, action: any StoreAction) in
///   switch action as? CounterAction {
///   case .increment?: count += 1
///   case .add(let amount)?: count += amount
///   case nil: break
///   }
/// }, state: 0)
/// store.dispatch(CounterAction.add(2))
/// print(store.state)  // Prints: 2
/// ```
public protocol StoreAction {}

/// Sends an action to a store.
///
/// A store hands one to every middleware (the `dispatch` that re-enters the chain at the top,
/// and the `next` that passes an action down), and thunks and effects receive one to send their
/// results. It may be called from any thread, so it is `@Sendable`: a thunk can hand it to a
/// completion handler that runs elsewhere.
///
/// A `Dispatch` that a store handed out holds the store weakly: once the store is gone, calling
/// it does nothing.
public typealias Dispatch = @Sendable (any StoreAction) -> Void
