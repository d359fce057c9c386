/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// ```swift
/// let cancellable = Just("hello").sink { print($0) }
/// // Prints: hello
/// ```
///
/// The value is delivered on the subscriber's first demand, followed by `.finished`.
@frozen
public struct Just<Output>: Publisher {
  /// The kind of errors this publisher might publish: it cannot fail.
  public typealias Failure = Never

  /// The one element that the publisher emits.
  public let output: Output

  /// Initializes a publisher that emits the specified output just once.
  @inlinable
  public init(_ output: Output) {
    self.output = output
  }

  /// Attaches the subscriber, which receives the output on its first demand.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
    let subscription = SingleValueSubscription(downstream: subscriber, value: output)
    handOver(subscription, reportingDetachTo: subscriber)
  }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}
