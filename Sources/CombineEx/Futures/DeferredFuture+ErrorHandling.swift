import CombineExCore

// Single-value error-handling operators; each returns a cold `DeferredFuture`. On a future
// made from work, `catch`, `tryCatch` and `replaceError` compose onto the work's start closure
// (one subscription for the chain), as the transforming operators do.

extension DeferredFutureProtocol {
  /// Replaces a failure with the result of another future.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = DeferredFuture<String, Offline>.fail(Offline())
  ///   .catch { _ in DeferredFuture<String, Never>.just("cached") }
  ///   .sink { print($0) }
  /// // Prints: cached
  /// ```
  ///
  /// `handler` makes the fallback future after the failure, once per failed subscription; the
  /// result's failure type is the fallback's.
  public func `catch`<F: DeferredFutureProtocol>(
    _ handler: @escaping (Failure) -> F
  ) -> DeferredFuture<Output, F.Failure> where F.Output == Output {
    guard let chain = composableChain else {
      return DeferredFuture<Output, F.Failure>(publisher: erasedPublisher.catch(handler))
    }
    return DeferredFuture(
      chain: chain.then { result, run, promise in
        switch result {
        case .success(let value): promise(.success(value))
        case .failure(let error): handler(error).run(in: run, promise: promise)
        }
      })
  }

  /// Replaces a failure with the result of another future: the original CombineEx's name for
  /// ``catch(_:)``.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// enum AppError: Error { case unreachable }
  /// let cancellable = DeferredFuture<String, Offline>.fail(Offline())
  ///   .flatMapError { _ in DeferredFuture<String, AppError>.fail(.unreachable) }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(AppError.unreachable)
  /// ```
  public func flatMapError<F: DeferredFutureProtocol>(
    _ transform: @escaping (Failure) -> F
  ) -> DeferredFuture<Output, F.Failure> where F.Output == Output {
    self.catch(transform)
  }

  /// Replaces a failure with the result of another future, made by a closure that may throw;
  /// a thrown error fails the result.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// struct Fatal: Error {}
  /// let cancellable = DeferredFuture<String, Offline>.fail(Offline())
  ///   .tryCatch { _ -> DeferredFuture<String, Offline> in throw Fatal() }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(Fatal())
  /// ```
  public func tryCatch<F: DeferredFutureProtocol>(
    _ handler: @escaping (Failure) throws -> F
  ) -> DeferredFuture<Output, any Error> where F.Output == Output {
    guard let chain = composableChain else {
      return DeferredFuture<Output, any Error>(publisher: erasedPublisher.tryCatch(handler))
    }
    return DeferredFuture(
      chain: chain.then { result, run, promise in
        switch result {
        case .success(let value):
          promise(.success(value))
        case .failure(let error):
          do {
            try handler(error).run(in: run) { promise($0.mapError { $0 }) }
          } catch {
            promise(.failure(error))
          }
        }
      })
  }

  /// Replaces a failure with a value: the result cannot fail.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .replaceError(with: 0)
  ///   .sink { print($0) }
  /// // Prints: 0
  /// ```
  public func replaceError(with output: Output) -> DeferredFuture<Output, Never> {
    guard let chain = composableChain else {
      return DeferredFuture<Output, Never>(publisher: erasedPublisher.replaceError(with: output))
    }
    return DeferredFuture(
      chain: chain.then { result, _, promise in
        switch result {
        case .success(let value): promise(.success(value))
        case .failure: promise(.success(output))
        }
      })
  }

  /// Runs the work again after a failure, at most `retries` more times.
  ///
  /// ```swift
  /// struct Flaky: Error {}
  /// var attempts = 0
  /// let cancellable = DeferredFuture<String, Flaky> { promise in
  ///   attempts += 1
  ///   promise(attempts < 3 ? .failure(Flaky()) : .success("ok after \(attempts) attempts"))
  /// }
  /// .retry(5)
  /// .sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: ok after 3 attempts
  /// ```
  ///
  /// Each retry is a new subscription of this future, so its work runs again: in all, the
  /// work runs at most `retries + 1` times per subscription of the result. When every attempt
  /// has failed, the last failure is passed on.
  public func retry(_ retries: Int) -> DeferredFuture<Output, Failure> {
    DeferredFuture(publisher: erasedPublisher.retry(retries))
  }
}
