import CombineExCore

// The original CombineEx's event hooks, for futures: each returns a cold `DeferredFuture`, so
// a chain of them stays a future. They are declared on `DeferredFutureProtocol`, which refines
// `Publisher`, so they are more specific than the `Publisher` hooks of the same names (which
// return `Publishers.HandleEvents`) and win for futures without any annotation.

extension DeferredFutureProtocol {
  /// Calls `receiveSubscription` when a subscription starts, before the work runs.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(1)
  ///   .handleSubscription { print("started") }
  ///   .sink { print($0) }
  /// // Prints: started, 1
  /// ```
  public func handleSubscription(
    _ receiveSubscription: (() -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(receiveSubscription: { _ in receiveSubscription?() })
  }

  /// Calls `receiveValue` with the future's value, before the subscriber receives it.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(2)
  ///   .handleValue { print("got \($0)") }
  ///   .sink { print($0) }
  /// // Prints: got 2, 2
  /// ```
  public func handleValue(
    _ receiveValue: ((Output) -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(receiveOutput: { receiveValue?($0) })
  }

  /// Calls `receiveError` with the future's failure, before the subscriber receives it.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .handleError { print("failed: \($0)") }
  ///   .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
  /// // Prints: failed: Offline()
  /// ```
  public func handleError(
    _ receiveError: ((Failure) -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(receiveCompletion: { completion in
      if case .failure(let error) = completion { receiveError?(error) }
    })
  }

  /// Calls `receiveFinished` when the future is done, with its value or with a failure (as the
  /// original CombineEx does for futures), before the subscriber receives the completion.
  ///
  /// ```swift
  /// var spinning = true
  /// let cancellable = DeferredFuture<Int, Never>.just(1)
  ///   .handleFinished { spinning = false }
  ///   .sink { _ in }
  /// print(spinning)  // Prints: false
  /// ```
  ///
  /// A cancelled subscription is not done: use ``handleCancel(_:)`` for that.
  public func handleFinished(
    _ receiveFinished: (() -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(receiveCompletion: { _ in receiveFinished?() })
  }

  /// Calls `receiveCompletion` with the future's result: `.success` with the value when it
  /// arrives, or `.failure` with the failure.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(3)
  ///   .handleCompletion { print($0) }
  ///   .sink { _ in }
  /// // Prints: success(3)
  /// ```
  public func handleCompletion(
    _ receiveCompletion: ((Result<Output, Failure>) -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(
      receiveOutput: { receiveCompletion?(.success($0)) },
      receiveCompletion: { completion in
        if case .failure(let error) = completion { receiveCompletion?(.failure(error)) }
      })
  }

  /// Calls `receiveCancel` when the subscriber cancels before the result.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never> { _ in }  // never fulfilled
  ///   .handleCancel { print("cancelled") }
  ///   .sink { _ in }
  /// cancellable.cancel()  // Prints: cancelled
  /// ```
  public func handleCancel(
    _ receiveCancel: (() -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(receiveCancel: { receiveCancel?() })
  }
}
