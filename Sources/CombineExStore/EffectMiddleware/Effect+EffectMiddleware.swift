import CombineEx

extension Effect {
  /// An effect that does nothing (SwiftRex's name for ``none``).
  ///
  /// ```swift
  /// let effect: Effect<Int, Never> = .doNothing
  /// ```
  public static var doNothing: Effect {
    .none
  }

  /// An effect that publishes one value, then finishes.
  ///
  /// ```swift
  /// let cancellable = Effect<String, Never>.just("hello").sink { print($0) }
  /// // Prints: hello
  /// ```
  public static func just(_ value: Output) -> Effect {
    Effect(value: value)
  }

  /// An effect that publishes the values in order, then finishes.
  ///
  /// ```swift
  /// let cancellable = Effect<Int, Never>.sequence(1, 2, 3).sink { print($0) }
  /// // Prints: 1, 2, 3
  /// ```
  public static func sequence(_ values: Output...) -> Effect {
    sequence(values)
  }

  /// An effect that publishes the values of a sequence in order, then finishes.
  public static func sequence<S: Sequence>(_ values: S) -> Effect where S.Element == Output {
    Effect(Array(values).publisher.setFailureType(to: Failure.self))
  }

  /// An effect that publishes the one value its work hands to `completion` (at once or later,
  /// from any thread), then finishes. The work runs once per subscription.
  ///
  /// ```swift
  /// let effect = Effect<String, Never>.promise { completion in
  ///   DispatchQueue.global().async { completion("response") }
  /// }
  /// ```
  public static func promise(
    _ work: @escaping (_ completion: @escaping @Sendable (Output) -> Void) -> Void
  ) -> Effect {
    .future { promise in
      work { promise(.success($0)) }
    }
  }
}

extension Publisher {
  /// Wraps this publisher in an ``Effect`` without a cancellation token.
  ///
  /// ```swift
  /// let effect: Effect<Int, Never> = Just(1).asEffect()
  /// ```
  @inlinable
  public func asEffect() -> Effect<Output, Failure> {
    Effect(self)
  }

  /// Wraps this publisher in an ``Effect`` filed under `cancellationToken` by the
  /// ``EffectMiddleware`` that runs it: starting it first cancels the middleware's effect in
  /// flight with the same token, and ``EffectMiddleware/Context/toCancel(_:)`` cancels it.
  ///
  /// ```swift
  /// let effect = Just("avatar").asEffect(cancellationToken: "image-for-user-42")
  /// print(effect.cancellationToken ?? "none")  // Prints: image-for-user-42
  /// ```
  ///
  /// Tokens are `Hashable` values told apart by type as well as value. They only mean something
  /// to an ``EffectMiddleware``; elsewhere the effect runs like any publisher.
  @inlinable
  public func asEffect<Token: Hashable>(cancellationToken: Token) -> Effect<Output, Failure> {
    Effect(self).withToken(CancellationKey(cancellationToken))
  }
}
