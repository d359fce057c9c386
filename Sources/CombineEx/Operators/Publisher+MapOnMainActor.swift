import CombineExCore

extension Publisher {
  /// Transforms each value on the main actor, then publishes the result (on the main queue).
  ///
  /// ```swift
  /// @MainActor final class Formatter { func format(_ value: Int) -> String { "#\(value)" } }
  /// let formatter = Formatter()
  /// let cancellable = Just(3)
  ///   .mapOnMainActor { formatter.format($0) }
  ///   .sink { print($0) }
  /// // Prints: #3 — soon, on the main queue
  /// // Not run by the doc tests: it needs the main queue.
  /// ```
  ///
  /// Each value becomes a future that runs `transform` on the main actor, and the result
  /// republishes the latest one (the return type is `map` then `switchToLatest`, as in the
  /// original CombineEx): a value that arrives before the previous value's transform has
  /// delivered its result replaces it, and the older result is dropped. Use it for state that
  /// only the latest value matters for (labels, view models); for every value, hop with
  /// `receive(on:)` and `map` instead.
  ///
  /// The transform runs asynchronously, after the work already queued for the main queue,
  /// even when the value arrives on the main thread. The result finishes once the upstream
  /// has finished and the last transform has delivered.
  public func mapOnMainActor<NewOutput>(
    _ transform: @escaping @MainActor (Output) -> NewOutput
  )
    -> Publishers.SwitchToLatest<
      AnyDeferredFuture<NewOutput, Self.Failure>,
      Publishers.Map<Self, AnyDeferredFuture<NewOutput, Self.Failure>>
    >
  {
    let transform = Handoff(transform)
    return Publishers.SwitchToLatest(
      upstream: Publishers.Map(upstream: self) { value in
        mainActorFuture(value, transform).eraseToAnyDeferredFuture()
      })
  }
}

extension DeferredFutureProtocol {
  /// Transforms the future's value on the main actor; the result is still a cold future.
  ///
  /// ```swift
  /// @MainActor final class Formatter { func format(_ value: Int) -> String { "#\(value)" } }
  /// let formatter = Formatter()
  /// let label: DeferredFuture<String, Never> = DeferredFuture<Int, Never>.just(3)
  ///   .mapOnMainActor { formatter.format($0) }
  /// let cancellable = label.sink { print($0) }
  /// // Prints: #3 — soon, on the main queue
  /// // Not run by the doc tests: it needs the main queue.
  /// ```
  ///
  /// Disfavoured, as in the original CombineEx: where both fit, the `Publisher` form is chosen.
  @_disfavoredOverload
  public func mapOnMainActor<NewOutput>(
    _ transform: @escaping @MainActor (Output) -> NewOutput
  ) -> DeferredFuture<NewOutput, Failure> {
    let transform = Handoff(transform)
    let next: (Output) -> DeferredFuture<NewOutput, Failure> = { mainActorFuture($0, transform) }
    return DeferredFuture(
      publisher: Publishers.FlatMap(
        upstream: erasedPublisher, maxPublishers: .max(1), transform: next))
  }
}

/// A future that runs `transform` on `value` on the main actor, once per subscription.
///
/// `transform` and `value` cross to the main actor in a ``Handoff``: a `@MainActor` closure
/// only ever runs there, and the value belongs to this one run.
private func mainActorFuture<Input, Output, Failure: Error>(
  _ value: Input, _ transform: Handoff<@MainActor (Input) -> Output>
) -> DeferredFuture<Output, Failure> {
  DeferredFuture { promise in
    let call = Handoff((promise, value))
    hopToMainActor {
      let (promise, value) = call.value
      promise(.success(transform.value(value)))
    }
  }
}
