/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's
/// `Input` and `Failure` must match the publisher's `Output` and `Failure`. Nothing flows until a
/// subscriber attaches and requests values with ``Subscription/request(_:)``.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///   .map { $0 * 10 }
///   .sink { print($0) }
/// // Prints: 10, 20, 30 (one per line)
/// ```
///
/// Implement ``receive(subscriber:)`` to create a publisher of your own; call
/// ``subscribe(_:)-5njf1`` to attach a subscriber (it is the same call under a public name).
public protocol Publisher<Output, Failure> {
  /// The kind of values published by this publisher.
  associatedtype Output

  /// The kind of errors this publisher might publish. Use `Never` if it never fails.
  associatedtype Failure: Error

  /// Attaches the specified subscriber to this publisher.
  ///
  /// Implementations must call the subscriber's ``Subscriber/receive(subscription:)`` exactly
  /// once, and then deliver at most as many values as the subscriber requests.
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
  /// Attaches the specified subscriber to this publisher.
  ///
  /// Always call this method, not ``receive(subscriber:)``, to attach a subscriber.
  ///
  /// ```swift
  /// final class FirstTwo: Subscriber {
  ///   typealias Input = Int
  ///   typealias Failure = Never
  ///
  ///   func receive(subscription: any Subscription) {
  ///     subscription.request(.max(2))
  ///   }
  ///
  ///   func receive(_ input: Int) -> Subscribers.Demand {
  ///     print(input)
  ///     return .none
  ///   }
  ///
  ///   func receive(completion: Subscribers.Completion<Never>) {
  ///     print(completion)
  ///   }
  /// }
  ///
  /// [1, 2, 3].publisher.subscribe(FirstTwo())
  /// // Prints: 1, 2 (the subscriber asked for two values, so 3 and the completion wait)
  /// ```
  @inlinable
  public func subscribe<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    receive(subscriber: subscriber)
  }
}
