import CombineExCore

// The original CombineEx's building blocks for future operators: each takes the result of this
// future and a promise for the next one. Here they are built on the publisher chain, so the
// subscription (and cancellation) reaches this future's work.

extension DeferredFutureProtocol {
  /// A future that runs this one, then hands its value and a new promise to `lift`, which
  /// fulfils that promise (at once or later); a failure passes through unchanged.
  ///
  /// ```swift
  /// let doubled = DeferredFuture<Int, Never>.just(21).futureLiftOutput { value, promise in
  ///   promise(.success(value * 2))
  /// }
  /// let cancellable = doubled.sink { print($0) }  // Prints: 42
  /// ```
  ///
  /// Cancelling the result cancels this future's work; once `lift` has been called, its
  /// promise is ignored after a cancel.
  public func futureLiftOutput<NewOutput>(
    _ lift: @escaping (Output, @escaping Future<NewOutput, Failure>.Promise) -> Void
  ) -> DeferredFuture<NewOutput, Failure> {
    futureLiftResult { result, promise in
      switch result {
      case .success(let value): lift(value, promise)
      case .failure(let error): promise(.failure(error))
      }
    }
  }

  /// A future that runs this one, then hands its failure and a new promise to `lift`; a value
  /// passes through unchanged.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// enum AppError: Error { case network }
  /// let mapped = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .futureLiftFailure { (_, promise: @escaping Future<Int, AppError>.Promise) in
  ///     promise(.failure(.network))
  ///   }
  /// ```
  public func futureLiftFailure<NewFailure: Error>(
    _ lift: @escaping (Failure, @escaping Future<Output, NewFailure>.Promise) -> Void
  ) -> DeferredFuture<Output, NewFailure> {
    chained { result, promise in
      switch result {
      case .success(let value): promise(.success(value))
      case .failure(let error): lift(error, promise)
      }
    }
  }

  /// A future that runs this one, then hands its result (value or failure) and a new promise
  /// to `lift`.
  ///
  /// ```swift
  /// let described = DeferredFuture<Int, Never>.just(3).futureLiftResult {
  ///   (result, promise: @escaping Future<String, Never>.Promise) in
  ///   promise(.success("\(result)"))
  /// }
  /// let cancellable = described.sink { print($0) }  // Prints: success(3)
  /// ```
  public func futureLiftResult<NewOutput>(
    _ lift:
      @escaping (Result<Output, Failure>, @escaping Future<NewOutput, Failure>.Promise) ->
      Void
  ) -> DeferredFuture<NewOutput, Failure> {
    chained(lift)
  }

  /// A future that runs this one, then hands its failure and a new promise of the same types to
  /// `lift`, which may recover with a value; a value passes through unchanged.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let recovered = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .futureLiftFailureToOutput { _, promise in promise(.success(0)) }
  /// let cancellable = recovered.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 0
  /// ```
  public func futureLiftFailureToOutput(
    _ lift: @escaping (Failure, @escaping Future<Output, Failure>.Promise) -> Void
  ) -> DeferredFuture<Output, Failure> {
    futureLiftFailure(lift)
  }

  /// The one chaining primitive: per subscription, runs this future, then calls `next` with
  /// its result and the promise of the chained future. Cancelling cancels whichever runs.
  func chained<NewOutput, NewFailure: Error>(
    _ next:
      @escaping (Result<Output, Failure>, @escaping Future<NewOutput, NewFailure>.Promise)
      -> Void
  ) -> DeferredFuture<NewOutput, NewFailure> {
    if let chain = composableChain {
      // Made from work: `next` runs as the chain's next stage, in the same subscription.
      return DeferredFuture<NewOutput, NewFailure>(
        chain: chain.then { result, run, continuation in
          FutureWork<NewOutput, NewFailure> { promise in
            next(result, promise)
            return nil
          }
          .run(in: run, promise: continuation)
        })
    }
    let results =
      erasedPublisher
      .map { Result<Output, Failure>.success($0) }
      .catch { Just(Result<Output, Failure>.failure($0)) }
    return DeferredFuture<NewOutput, NewFailure>(
      publisher:
        results
        .setFailureType(to: NewFailure.self)
        .flatMap(maxPublishers: .max(1)) { result in
          FutureWork<NewOutput, NewFailure> { promise in
            next(result, promise)
            return nil
          }
        })
  }
}
