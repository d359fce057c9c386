import CombineExCore

extension DeferredFutureProtocol {
  #if compiler(>=6.2)
    /// Subscribes, runs the work, and returns its value or throws its failure.
    ///
    /// ```swift
    /// let future = DeferredFuture<Int, any Error> { 6 * 7 }
    /// print(try await future.value)  // Prints: 42
    /// ```
    ///
    /// Every access is a new subscription, and so runs the work again. The accessor throws
    /// exactly the future's `Failure` (and a never-failing future's accessor does not throw).
    /// It runs on the caller's actor.
    ///
    /// Cancelling the awaiting task: when `Failure` is `any Error`, the subscription is
    /// cancelled (which cancels the task of an `async` future) and the accessor throws
    /// `CancellationError`. Any other `Failure` cannot carry that error, so the accessor waits
    /// for the result.
    nonisolated(nonsending)
      public var value: Output
    {
      get async throws(Failure) { try await awaitedValue() }
    }
  #else
    /// Subscribes, runs the work, and returns its value or throws its failure.
    ///
    /// Every access is a new subscription, and so runs the work again. The accessor throws
    /// exactly the future's `Failure` (and a never-failing future's accessor does not throw).
    ///
    /// Cancelling the awaiting task: when `Failure` is `any Error`, the subscription is
    /// cancelled (which cancels the task of an `async` future) and the accessor throws
    /// `CancellationError`. Any other `Failure` cannot carry that error, so the accessor waits
    /// for the result.
    public var value: Output {
      get async throws(Failure) { try await awaitedValue() }
    }
  #endif

  fileprivate func awaitedValue(
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Failure) -> Output {
    switch await firstResult(cancellationFailure: CancellationError() as? Failure) {
    case .success(let value): return value
    case .failure(let error): throw error
    case nil: preconditionFailure("A DeferredFuture finished without a value.")
    }
  }
}

// A separate, non-throwing accessor for never-failing futures: Swift 6.3 cannot compile a
// call of an `async throws(Failure)` getter whose `Failure` is `Never` (the compiler crashes).
extension DeferredFutureProtocol where Failure == Never {
  #if compiler(>=6.2)
    /// Subscribes, runs the work, and returns its value.
    ///
    /// ```swift
    /// let future = DeferredFuture<Int, Never>.just(42)
    /// print(await future.value)  // Prints: 42
    /// ```
    ///
    /// Every access is a new subscription, and so runs the work again. The accessor runs on
    /// the caller's actor. Cancelling the awaiting task does not end the wait: a never-failing
    /// future cannot report the cancellation, so the accessor waits for the value.
    nonisolated(nonsending)
      public var value: Output
    {
      get async { await awaitedValue() }
    }
  #else
    /// Subscribes, runs the work, and returns its value.
    ///
    /// Every access is a new subscription, and so runs the work again. Cancelling the awaiting
    /// task does not end the wait: a never-failing future cannot report the cancellation, so
    /// the accessor waits for the value.
    public var value: Output {
      get async { await awaitedValue() }
    }
  #endif
}
