extension Subscribers {
  /// A signal that a publisher doesn't produce additional elements, either due to normal
  /// completion or an error.
  ///
  /// ```swift
  /// let cancellable = Fail<Int, URLError>(error: URLError(.timedOut))
  ///   .sink(receiveCompletion: { completion in
  ///     if case .failure(let error) = completion { print(error.code) }
  ///   }, receiveValue: { _ in })
  /// ```
  @frozen
  public enum Completion<Failure: Error> {
    /// The publisher finished normally.
    case finished
    /// The publisher stopped publishing due to the indicated error.
    case failure(Failure)
  }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable {}

extension Subscribers.Completion {
  /// Returns the same completion with its failure transformed (`.finished` is unchanged).
  @inlinable
  func mapFailure<NewFailure: Error>(_ transform: (Failure) -> NewFailure)
    -> Subscribers.Completion<NewFailure>
  {
    switch self {
    case .finished: return .finished
    case .failure(let error): return .failure(transform(error))
    }
  }
}

extension Subscribers.Completion where Failure == Never {
  /// Converts a completion that cannot fail into one of any failure type.
  @inlinable
  func promoted<NewFailure: Error>(to _: NewFailure.Type = NewFailure.self)
    -> Subscribers.Completion<NewFailure>
  {
    .finished
  }
}
