/// Composes two values of the same type into one (a semigroup's operation).
infix operator <> : AdditionPrecedence

extension EffectMiddleware {
  /// Composes two effect middlewares into one that runs both handlers for each action, `lhs`
  /// first, and dispatches the outputs of both effects.
  ///
  /// Each side keeps its own cancellation tokens: a token used by `lhs` never cancels an effect
  /// of `rhs`, even if the values are equal.
  ///
  /// ```swift
  /// struct Tap: StoreAction {}
  /// struct Logged: StoreAction { let by: String }
  ///
  /// let first = EffectMiddleware<Tap, Logged, Int, Void>.onAction { _, _, _ in
  ///   .just(Logged(by: "first"))
  /// }
  /// let second = EffectMiddleware<Tap, Logged, Int, Void>.onAction { _, _, _ in
  ///   .just(Logged(by: "second"))
  /// }
  /// let store = Store(
  ///   reducer: { (log: inout Int, action: any StoreAction) in
  ///     if action is Logged { log += 1 }
  ///   },
  ///   state: 0,
  ///   middlewares: [(first <> second).asMiddleware()])
  /// store.dispatch(Tap())
  /// print(store.state)  // Prints: 2
  /// ```
  public static func <> (lhs: EffectMiddleware, rhs: EffectMiddleware) -> EffectMiddleware {
    EffectMiddleware(components: lhs.components + rhs.components)
  }
}
