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

  /// Attaches the subscriber, which receives `Subscriptions.empty` and the failure.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: .failure(error))
  }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable {}
