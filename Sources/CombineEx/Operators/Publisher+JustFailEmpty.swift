import CombineExCore

extension Publisher {
  /// A publisher of this type's `Output` and `Failure` that publishes `value`, then finishes.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let greeting = AnyPublisher<String, Offline>.just("hello")
  /// let cancellable = greeting.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: hello
  /// ```
  ///
  /// Handy where an `AnyPublisher<Output, Failure>` is expected: `return .just(cached)`.
  /// (`AnyDeferredPublisher`, `DeferredFuture` and the properties declare their own `just`,
  /// which their types prefer.)
  public static func just(_ value: Output) -> AnyPublisher<Output, Failure> {
    AnyPublisher(Result<Output, Failure>.Publisher(.success(value)))
  }

  /// A publisher of this type's `Output` and `Failure` that fails at once with `failure`.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let failing = AnyPublisher<String, Offline>.fail(Offline())
  /// let cancellable = failing.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(Offline())
  /// ```
  public static func fail(_ failure: Failure) -> AnyPublisher<Output, Failure> {
    AnyPublisher(Fail<Output, Failure>(error: failure))
  }

  /// A publisher of this type's `Output` and `Failure` that finishes at once, without values.
  ///
  /// ```swift
  /// let nothing = AnyPublisher<String, Never>.empty()
  /// let cancellable = nothing.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: finished
  /// ```
  public static func empty() -> AnyPublisher<Output, Failure> {
    AnyPublisher(Empty<Output, Failure>())
  }
}
