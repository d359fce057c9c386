import CombineExCore

// The original CombineEx's async accessors, beside `value`: each call subscribes once, runs the
// work, and returns its value or throws its failure.

extension DeferredFutureProtocol {
  /// Subscribes, runs the work, and returns its value or throws its failure: the original
  /// CombineEx's spelling of `value`.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let answer = DeferredFuture<Int, Offline>.just(42)
  /// print(try await answer.asyncThrowing())  // Prints: 42
  /// ```
  ///
  /// Each call is a new subscription, so the work runs again. It throws exactly `Failure`.
  /// Cancelling the awaiting task cancels the subscription (and the task of an `async` future)
  /// when `Failure` is `any Error`, and throws `CancellationError`; any other `Failure` cannot
  /// carry that error, so the call waits for the result.
  public func asyncThrowing(
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Failure) -> Output {
    switch await firstResult(cancellationFailure: CancellationError() as? Failure) {
    case .success(let value): return value
    case .failure(let error): throw error
    case nil: preconditionFailure("A DeferredFuture finished without a value.")
    }
  }

  /// ``asyncThrowing(isolation:)`` for callers on the main actor.
  ///
  /// ```swift
  /// @MainActor func showScore(_ score: DeferredFuture<Int, any Error>) async throws {
  ///   let value = try await score.asyncThrowingOnMain()
  ///   print(value)
  /// }
  /// ```
  @MainActor
  public func asyncThrowingOnMain() async throws(Failure) -> Output {
    try await asyncThrowing()
  }
}

extension DeferredFutureProtocol where Failure == Never {
  /// Subscribes, runs the work, and returns its value: the original CombineEx's spelling of
  /// `value` for a future that cannot fail.
  ///
  /// ```swift
  /// let answer = DeferredFuture<Int, Never>.just(42)
  /// print(await answer.async())  // Prints: 42
  /// ```
  ///
  /// Each call is a new subscription, so the work runs again. Cancelling the awaiting task does
  /// not end the wait: a never-failing future cannot report it.
  public func async(isolation: isolated (any Actor)? = #isolation) async -> Output {
    guard case .success(let value) = await firstResult(cancellationFailure: nil) else {
      preconditionFailure("A DeferredFuture finished without a value.")
    }
    return value
  }

  /// ``async(isolation:)`` for callers on the main actor.
  ///
  /// ```swift
  /// @MainActor func showTitle(_ title: DeferredFuture<String, Never>) async {
  ///   print(await title.asyncOnMain())
  /// }
  /// ```
  @MainActor
  public func asyncOnMain() async -> Output {
    await async()
  }
}
