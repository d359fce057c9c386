import CombineExCore

extension Publisher {
  /// Files this publisher's failure under a case of the ``CompositeError`` the context
  /// expects, with ``CompositeError/wrappingAllCases(_:)``.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// enum LoadError: CompositeError {
  ///   case offline(Offline)
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<LoadError>().mapping(Offline.self) { .offline($0) }
  /// }
  /// let load: AnyPublisher<Int, LoadError> = Fail<Int, Offline>(error: Offline())
  ///   .wrapWithCompositeFailure()
  ///   .eraseToAnyPublisher()
  /// let cancellable = load.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(LoadError.offline(Offline()))
  /// ```
  ///
  /// Values and `.finished` pass through unchanged. The result is a `Publishers.MapError`, so
  /// on a cold publisher it stays cold (`eraseToAnyDeferredPublisher()` applies). Use
  /// ``wrapWithCompositeFailure(_:)`` to name the error type where the context does not.
  public func wrapWithCompositeFailure<NewFailure>() -> Publishers.MapError<Self, NewFailure>
  where NewFailure: CompositeError {
    mapError { NewFailure.wrappingAllCases($0) }
  }

  /// Files this publisher's failure under a case of `NewFailure`, with
  /// ``CompositeError/wrappingAllCases(_:)``.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// enum LoadError: CompositeError {
  ///   case offline(Offline)
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<LoadError>().mapping(Offline.self) { .offline($0) }
  /// }
  /// let cancellable = Fail<Int, Offline>(error: Offline())
  ///   .wrapWithCompositeFailure(LoadError.self)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(LoadError.offline(Offline()))
  /// ```
  public func wrapWithCompositeFailure<NewFailure>(
    _ t: NewFailure.Type
  ) -> Publishers.MapError<Self, NewFailure> where NewFailure: CompositeError {
    mapError { NewFailure.wrappingAllCases($0) }
  }
}

extension DeferredFutureProtocol {
  /// Files this future's failure under a case of the ``CompositeError`` the context expects;
  /// the result is still a cold future.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// enum LoadError: CompositeError {
  ///   case offline(Offline)
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<LoadError>().mapping(Offline.self) { .offline($0) }
  /// }
  /// let load: AnyDeferredFuture<Int, LoadError> = DeferredFuture<Int, Offline>
  ///   .fail(Offline())
  ///   .wrapWithCompositeFailure()
  ///   .eraseToAnyDeferredFuture()
  /// let cancellable = load.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(LoadError.offline(Offline()))
  /// ```
  ///
  /// As in the original CombineEx this overload is disfavoured: where both fit, the
  /// `Publisher` form (a `Publishers.MapError`, also cold) is chosen; this one is chosen where
  /// a future is needed (`eraseToAnyDeferredFuture()`, a `DeferredFuture` type annotation).
  @_disfavoredOverload
  public func wrapWithCompositeFailure<NewFailure>() -> DeferredFuture<Output, NewFailure>
  where NewFailure: CompositeError {
    mapError { NewFailure.wrappingAllCases($0) }
  }

  /// Files this future's failure under a case of `NewFailure`; the result is still a cold
  /// future.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// enum LoadError: CompositeError {
  ///   case offline(Offline)
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<LoadError>().mapping(Offline.self) { .offline($0) }
  /// }
  /// let load = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .wrapWithCompositeFailure(LoadError.self)
  ///   .eraseToAnyDeferredFuture()
  /// let cancellable = load.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(LoadError.offline(Offline()))
  /// ```
  @_disfavoredOverload
  public func wrapWithCompositeFailure<NewFailure>(
    _ t: NewFailure.Type
  ) -> DeferredFuture<Output, NewFailure> where NewFailure: CompositeError {
    mapError { NewFailure.wrappingAllCases($0) }
  }
}
