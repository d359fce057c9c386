/// A publisher that immediately terminates with the specified error.
///
/// ```swift
/// struct Oops: Error {}
/// let cancellable = Fail<Int, Oops>(error: Oops()).sink(
///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // Prints: failure(Oops())
/// ```
@frozen
public struct Fail<Output, Failure: Error>: Publisher {
  /// The failure to send when terminating the publisher.
  public let error: Failure

  /// Creates a publisher that immediately terminates with the specified failure.
  @inlinable
  public init(error: Failure) {
    self.error = error
  }

  /// Creates a publisher with the given output type, that immediately terminates with the
  /// specified failure.
  @inlinable
  public init(outputType: Output.Type, failure: Failure) {
    error = failure
  }

  /// Attaches the subscriber, which receives a subscription and the failure (unless it
  /// cancelled from inside `receive(subscription:)`).
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    completeAtOnce(subscriber, with: .failure(error))
  }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable {}
