import CombineEx

/// A middleware made of one function: it observes the actions of one type, after the reducer
/// has handled them, and returns an ``Effect`` whose outputs are dispatched back to the store
/// (SwiftRex's `EffectMiddleware`).
///
/// ```swift
/// enum Request: StoreAction { case load(id: Int), cancel(id: Int) }
/// enum Response: StoreAction { case loaded(id: Int, name: String) }
/// struct Client { let fetchName: (Int) -> AnyPublisher<String, Never> }
///
/// let api = EffectMiddleware<Request, Response, [Int: String], Client>.onAction {
///   action, state, context in
///   switch action {
///   case .load(let id) where state[id] == nil:
///     return context.dependencies.fetchName(id)
///       .map { Response.loaded(id: id, name: $0) }
///       .asEffect(cancellationToken: id)  // a new load of `id` cancels the one in flight
///   case .load:
///     return .doNothing
///   case .cancel(let id):
///     return context.toCancel(id)
///   }
/// }
/// let store = Store(
///   reducer: { (names: inout [Int: String], action: any StoreAction) in
///     if case .loaded(let id, let name)? = action as? Response { names[id] = name }
///   },
///   state: [:],
///   middlewares: [api.inject(Client { Just("user \($0)").eraseToAnyPublisher() }).asMiddleware()])
/// store.dispatch(Request.load(id: 1))
/// print(store.state)  // Prints: [1: "user 1"]
/// ```
///
/// ## Semantics
/// - The handler is called for every action of type `InputAction`, *after* the rest of the
///   chain (and so the reducer) has handled it, with the state after that reduction. Every
///   action passes on down the chain: the middleware only observes.
/// - The returned effect is subscribed at once; its outputs are dispatched to the store (an
///   output published synchronously is processed right after the action that caused it).
///   Effects cannot fail.
/// - An effect with a cancellation token (``CombineExCore/Publisher/asEffect(cancellationToken:)``)
///   first cancels the effect in flight with the same token, before it starts.
///   ``Context/toCancel(_:)`` cancels the effect in flight under a token at once (an unknown
///   token is ignored).
/// - Tokens belong to this middleware, in one store: two middlewares composed with `<>` keep
///   separate tables, and so do two stores using the same middleware.
/// - Finished effects are forgotten, with or without a token; the completion of a replaced
///   effect never removes its successor. ``runningEffectCount`` counts those in flight.
/// - When the store is freed, its effects in flight are cancelled.
///
/// The handler runs while the store processes the action, on that thread; keep it quick and
/// put the work in the effect.
public final class EffectMiddleware<InputAction, OutputAction, State, Dependencies>:
  @unchecked Sendable
{
  // @unchecked Sendable: every stored property is immutable; the handlers are only called by a
  // store while it processes an action, one action at a time per store.

  /// The handler's type: an action, the state after the reducer handled it, and the context.
  public typealias Handler = (_ action: InputAction, _ state: State, _ context: Context) -> Effect<
    OutputAction, Never
  >

  /// What a handler receives besides the action and the state.
  public struct Context {
    /// Where the action was dispatched from.
    public let source: ActionSource

    /// The dependencies given to ``EffectMiddleware/inject(_:)``.
    public let dependencies: Dependencies

    /// The token table of this middleware in this store.
    let table: EffectTable

    @usableFromInline
    init(source: ActionSource, dependencies: Dependencies, table: EffectTable) {
      self.source = source
      self.dependencies = dependencies
      self.table = table
    }

    /// Cancels, at once, the effect in flight under `token` (an unknown token is ignored), and
    /// returns ``Effect/doNothing`` so that a handler can return the call.
    ///
    /// ```swift
    /// enum Download: StoreAction { case start(String), stop(String) }
    /// let downloads = EffectMiddleware<Download, Download, Void, Void>.onAction {
    ///   action, _, context in
    ///   switch action {
    ///   case .start(let url): return Empty().asEffect(cancellationToken: url)
    ///   case .stop(let url): return context.toCancel(url)
    ///   }
    /// }
    /// ```
    @discardableResult
    public func toCancel<Token: Hashable>(_ token: Token) -> Effect<OutputAction, Never> {
      table.cancel(CancellationKey(token))
      return .doNothing
    }
  }

  /// One handler with the place it was written: `<>` concatenates components.
  @usableFromInline
  struct Component {
    @usableFromInline
    let origin: ActionSource
    @usableFromInline
    let handle: Handler

    init(origin: ActionSource, handle: @escaping Handler) {
      self.origin = origin
      self.handle = handle
    }
  }

  @usableFromInline
  let components: [Component]
  @usableFromInline
  let counter = EffectCounter()

  init(components: [Component]) {
    self.components = components
  }

  /// Creates an effect middleware from its handler. The call site is recorded as the source of
  /// the actions its effects dispatch.
  public static func onAction(
    file: String = #fileID, function: String = #function, line: UInt = #line,
    _ handler: @escaping Handler
  ) -> EffectMiddleware {
    EffectMiddleware(components: [
      Component(
        origin: ActionSource(
          file: file, function: function, line: line, info: "effect of \(InputAction.self)"),
        handle: handler)
    ])
  }

  /// How many effects started through this instance's `asMiddleware()` are in flight, over all
  /// the stores it is installed in.
  public var runningEffectCount: Int {
    counter.count.load(ordering: .relaxed)
  }

  /// Gives the middleware its dependencies: the result's handlers see them in
  /// ``Context/dependencies``, and it can be turned into a store middleware with `asMiddleware()`.
  ///
  /// ```swift
  /// struct Ping: StoreAction {}
  /// let pinger = EffectMiddleware<Ping, Ping, Int, String>.onAction { _, _, context in
  ///   print(context.dependencies)
  ///   return .doNothing
  /// }
  /// let ready: EffectMiddleware<Ping, Ping, Int, Void> = pinger.inject("production")
  /// ```
  public func inject(_ dependencies: Dependencies) -> EffectMiddleware<
    InputAction, OutputAction, State, Void
  > {
    EffectMiddleware<InputAction, OutputAction, State, Void>(
      components: components.map { component in
        EffectMiddleware<InputAction, OutputAction, State, Void>.Component(
          origin: component.origin,
          handle: { action, state, context in
            component.handle(
              action, state,
              Context(source: context.source, dependencies: dependencies, table: context.table))
          })
      })
  }
}

extension EffectMiddleware.Context: Sendable where Dependencies: Sendable {}

/// The handlers and the output conversion, carried into the store's `@Sendable` middleware
/// function.
@usableFromInline
struct UncheckedHandlers<InputAction, OutputAction, State, Dependencies>:
  @unchecked Sendable
{
  // @unchecked Sendable: immutable; the closures are only called by a store while it processes
  // an action (or, for `toAction`, while an effect delivers an output), never concurrently on
  // shared mutable state of their own.
  @usableFromInline
  let components: [EffectMiddleware<InputAction, OutputAction, State, Dependencies>.Component]
  @usableFromInline
  let toAction: (OutputAction) -> any StoreAction

  @usableFromInline
  init(
    components: [EffectMiddleware<InputAction, OutputAction, State, Dependencies>.Component],
    toAction: @escaping (OutputAction) -> any StoreAction
  ) {
    self.components = components
    self.toAction = toAction
  }
}

extension EffectMiddleware where Dependencies == Void {
  /// The middleware function, with the conversion of outputs to actions.
  ///
  /// Inlinable, so that the function a store calls at every action is specialized for the
  /// middleware's types in the caller's module: compiled once for any types, it looked up
  /// `Context`, `Component`, `Effect` and the optionals of the input and the state in the
  /// runtime's metadata cache at every action (a sixth of `j7`). The table's work stays behind
  /// ``EffectTable/run(_:origin:output:)``.
  @inlinable
  func makeMiddleware(toAction: @escaping (OutputAction) -> any StoreAction) -> Middleware<State> {
    let handlers = UncheckedHandlers(components: components, toAction: toAction)
    let counter = self.counter
    return { dispatch, getState, next in
      // The store that installs the middleware binds its cancellation table while it makes its
      // middlewares: effects run here file their ids in it.
      let tables = handlers.components.map { _ in EffectTable.forInstallingStore(counter: counter) }
      // Made once per component, not at every effect run.
      let outputs = handlers.components.map { component in
        let origin = component.origin
        return EffectOutput<OutputAction> { output in
          dispatch(sourcedAction(handlers.toAction(output), source: origin))
        }
      }
      return { action in
        next(action)
        guard let input = action as? InputAction, let state = getState() else { return }
        let source = ActionSource.ofCurrentAction
        var index = 0
        while index < tables.count {
          let component = handlers.components[index]
          let table = tables[index]
          let effect = component.handle(
            input, state, Context(source: source, dependencies: (), table: table))
          table.run(effect, origin: component.origin, output: outputs[index])
          index += 1
        }
      }
    }
  }
}

extension EffectMiddleware where Dependencies == Void, OutputAction: StoreAction {
  /// Turns the middleware into a ``Middleware`` for a ``Store``; its effects' outputs are
  /// dispatched to that store.
  ///
  /// Each store it is installed in gets its own token tables.
  @inlinable
  public func asMiddleware() -> Middleware<State> {
    makeMiddleware { $0 }
  }
}

extension EffectMiddleware where Dependencies == Void, OutputAction == any StoreAction {
  /// Turns the middleware into a ``Middleware`` for a ``Store``; its effects' outputs (of any
  /// action type) are dispatched to that store.
  ///
  /// Each store it is installed in gets its own token tables.
  @inlinable
  public func asMiddleware() -> Middleware<State> {
    makeMiddleware { $0 }
  }
}
