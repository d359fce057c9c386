/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// ```swift
/// let cancellable = Empty<Int, Never>().sink(
///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // Prints: finished
/// ```
///
/// `Empty(completeImmediately: false)` never completes: a publisher that does nothing, useful
/// as a placeholder.
@frozen
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
  /// Whether the publisher finishes as soon as a subscriber attaches.
  public let completeImmediately: Bool

  /// Creates an empty publisher.
  ///
  /// - Parameter completeImmediately: Whether to send `.finished` at once (the default) or
  ///   never.
  @inlinable
  public init(completeImmediately: Bool = true) {
    self.completeImmediately = completeImmediately
  }

  /// Creates an empty publisher with the given completion behavior and output and failure
  /// types.
  @inlinable
  public init(
    completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type
  ) {
    self.init(completeImmediately: completeImmediately)
  }

  /// Attaches the subscriber, which receives a subscription and, if `completeImmediately`,
  /// `.finished` (unless it cancelled from inside `receive(subscription:)`).
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    if completeImmediately {
      completeAtOnce(subscriber, with: .finished)
    } else {
      subscriber.receive(subscription: Subscriptions.empty)
    }
  }

  /// Two empty publishers are equal when they complete the same way.
  @inlinable
  public static func == (lhs: Empty, rhs: Empty) -> Bool {
    lhs.completeImmediately == rhs.completeImmediately
  }
}
