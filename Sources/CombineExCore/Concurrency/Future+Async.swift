extension Future where Failure == Never {
  #if compiler(>=6.2)
    /// The published value, awaited: subscribes and returns the value once it is available.
    ///
    /// ```swift
    /// let future = Future<Int, Never> { promise in promise(.success(7)) }
    /// print(await future.value)  // Prints: 7
    /// ```
    ///
    /// The accessor runs on the caller's actor. Cancelling the awaiting task does not end the
    /// wait (a never-failing future has no way to report it): the accessor returns when the
    /// future is fulfilled.
    nonisolated(nonsending)
      public var value: Output
    {
      get async { await awaitedValue() }
    }
  #else
    /// The published value, awaited: subscribes and returns the value once it is available.
    ///
    /// Cancelling the awaiting task does not end the wait (a never-failing future has no way
    /// to report it): the accessor returns when the future is fulfilled.
    public var value: Output {
      get async { await awaitedValue() }
    }
  #endif

  private func awaitedValue(isolation: isolated (any Actor)? = #isolation) async -> Output {
    guard case .success(let value) = await firstResult(cancellationFailure: nil) else {
      preconditionFailure("A Future finished without a value.")
    }
    return value
  }
}

extension Future {
  #if compiler(>=6.2)
    /// The published value, awaited: subscribes and returns the value once it is available, or
    /// throws the future's failure.
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let future = Future<Int, Offline> { promise in promise(.failure(Offline())) }
    /// do {
    ///   _ = try await future.value
    /// } catch {
    ///   print(error)  // Prints: Offline()
    /// }
    /// ```
    ///
    /// The accessor runs on the caller's actor. When `Failure` is `any Error`, cancelling the
    /// awaiting task stops the wait and throws `CancellationError` (the future itself keeps
    /// running for its other subscribers); with a concrete `Failure`, which cannot hold a
    /// `CancellationError`, the wait goes on until the future is fulfilled.
    nonisolated(nonsending)
      public var value: Output
    {
      get async throws { try await awaitedValue() }
    }
  #else
    /// The published value, awaited: subscribes and returns the value once it is available, or
    /// throws the future's failure.
    ///
    /// When `Failure` is `any Error`, cancelling the awaiting task stops the wait and throws
    /// `CancellationError` (the future itself keeps running for its other subscribers); with a
    /// concrete `Failure`, the wait goes on until the future is fulfilled.
    public var value: Output {
      get async throws { try await awaitedValue() }
    }
  #endif

  private func awaitedValue(isolation: isolated (any Actor)? = #isolation) async throws -> Output {
    let cancellation = CancellationError() as? Failure
    switch await firstResult(cancellationFailure: cancellation) {
    case .success(let value): return value
    case .failure(let error): throw error
    case nil: preconditionFailure("A Future finished without a value.")
    }
  }
}
