import CombineExCore

extension Publisher where Failure == Never {
  /// Gives a publisher that cannot fail the failure type the context expects: Combine's
  /// `setFailureType(to:)` with the type inferred.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// func load() -> AnyPublisher<Int, Offline> {
  ///   Just(1).promoteFailure().eraseToAnyPublisher()
  /// }
  /// let cancellable = load().sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 1
  /// ```
  public func promoteFailure<NewFailure>() -> Publishers.SetFailureType<Self, NewFailure> {
    Publishers.SetFailureType(upstream: self)
  }
}

extension DeferredFutureProtocol where Failure == Never {
  /// Gives a future that cannot fail the failure type the context expects; the result is
  /// still a cold future.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// func load() -> AnyDeferredFuture<Int, Offline> {
  ///   DeferredFuture<Int, Never>.just(1).promoteFailure().eraseToAnyDeferredFuture()
  /// }
  /// let cancellable = load().sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 1
  /// ```
  ///
  /// Disfavoured, as in the original CombineEx: where both fit, the `Publisher` form (a
  /// `Publishers.SetFailureType`, also cold) is chosen.
  @_disfavoredOverload
  public func promoteFailure<NewFailure>() -> DeferredFuture<Output, NewFailure> {
    setFailureType(to: NewFailure.self)
  }
}
