import CombineEx

extension Publisher {
  /// Wraps this publisher in an ``Effect``.
  ///
  /// ```swift
  /// let effect: Effect<Int, Never> = [1, 2].publisher.eraseToEffect()
  /// ```
  public func eraseToEffect() -> Effect<Output, Failure> {
    Effect(self)
  }

  /// Transforms each value, and wraps the result in an ``Effect``.
  ///
  /// ```swift
  /// struct Loaded: StoreAction { let count: Int }
  /// let effect: Effect<Loaded, Never> = Just(3).eraseToEffect(Loaded.init(count:))
  /// ```
  public func eraseToEffect<T>(_ transform: @escaping (Output) -> T) -> Effect<T, Failure> {
    Effect(map(transform))
  }

  /// Turns values and the failure into `Result`s, in an effect that never fails.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = Fail<Int, Offline>(error: Offline()).catchToEffect().sink { print($0) }
  /// // Prints: failure(Offline())
  /// ```
  public func catchToEffect() -> Effect<Result<Output, Failure>, Never> {
    catchToEffect { $0 }
  }

  /// Turns values and the failure into `Result`s, transforms them (typically into an action),
  /// in an effect that never fails.
  ///
  /// ```swift
  /// enum Response: StoreAction { case loaded(Result<Int, URLError>) }
  /// let effect = Just(42).setFailureType(to: URLError.self).catchToEffect(Response.loaded)
  /// ```
  public func catchToEffect<T>(_ transform: @escaping (Result<Output, Failure>) -> T) -> Effect<
    T, Never
  > {
    Effect(
      map { transform(.success($0)) }
        .catch { Just(transform(.failure($0))) })
  }

  /// Runs this publisher for its side effects only: an effect of any type that publishes
  /// nothing, ignores the failure, and finishes when this publisher completes.
  ///
  /// ```swift
  /// struct Analytics { func track(_ event: String) -> Just<Void> { Just(()) } }
  /// let effect: Effect<Never, Never> = Analytics().track("tapped").fireAndForget()
  /// ```
  public func fireAndForget<NewOutput, NewFailure>(
    outputType: NewOutput.Type = NewOutput.self,
    failureType: NewFailure.Type = NewFailure.self
  ) -> Effect<NewOutput, NewFailure> {
    Effect(
      flatMap { _ in Empty<NewOutput, Failure>() }
        .catch { _ in Empty<NewOutput, NewFailure>() })
  }
}
