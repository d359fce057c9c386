/// A protocol that declares a type that can receive input from a publisher.
///
/// A publisher calls ``receive(subscription:)`` once, then ``receive(_:)`` at most as many
/// times as the subscriber has requested, then ``receive(completion:)`` at most once. Calls to
/// one subscriber never overlap: a subscriber may keep unsynchronized state.
///
/// ```swift
/// final class Printer: Subscriber {
///   typealias Input = Int
///   typealias Failure = Never
///   func receive(subscription: any Subscription) { subscription.request(.max(2)) }
///   func receive(_ input: Int) -> Subscribers.Demand {
///     print(input)
///     return .none
///   }
///   func receive(completion: Subscribers.Completion<Never>) { print(completion) }
/// }
/// [1, 2, 3].publisher.subscribe(Printer())
/// // Prints: 1, 2 — the subscriber asked for two values only
/// ```
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  /// The kind of values this subscriber receives.
  associatedtype Input

  /// The kind of errors this subscriber might receive. Use `Never` if it cannot receive errors.
  associatedtype Failure: Error

  /// Tells the subscriber that it has successfully subscribed to the publisher.
  ///
  /// Use the subscription to request values (``Subscription/request(_:)``) or to cancel.
  func receive(subscription: any Subscription)

  /// Tells the subscriber that the publisher has produced an element.
  ///
  /// - Returns: The number of further elements the subscriber expects, added to its
  ///   outstanding demand. Return `.none` to leave the demand unchanged.
  func receive(_ input: Input) -> Subscribers.Demand

  /// Tells the subscriber that the publisher has completed publishing, normally or with an error.
  func receive(completion: Subscribers.Completion<Failure>)

  /// ``receive(subscription:)``, from an upstream that promises to call
  /// ``_upstreamDetached()`` after the subscription is cancelled, once no delivery to this
  /// subscriber runs and none will start.
  ///
  /// An implementation detail of the library (subjects, `Publishers.Sequence`, `Just`,
  /// `Result.Publisher`, `Optional.Publisher` and `receive(on:)` keep the promise; `Subscribers.Sink` then
  /// delivers values without atomic bookkeeping and still releases its closures on cancel). Not
  /// part of Combine's API: never implement it; the default calls ``receive(subscription:)``.
  func _receive(subscriptionReportingDetach subscription: any Subscription)

  /// Called by an upstream that handed this subscriber its subscription with
  /// ``_receive(subscriptionReportingDetach:)``, once it has forgotten the subscriber after a
  /// cancel (or a completion): no delivery to it runs, on any thread, and none will start. Not
  /// part of Combine's API: never implement it; the default does nothing.
  func _upstreamDetached()
}

extension Subscriber {
  /// Calls ``receive(subscription:)``.
  @inlinable
  public func _receive(subscriptionReportingDetach subscription: any Subscription) {
    receive(subscription: subscription)
  }

  /// Does nothing.
  @inlinable
  public func _upstreamDetached() {}
}

extension Subscriber where Input == Void {
  /// Tells the subscriber that a publisher of void elements is ready to receive further
  /// requests.
  @inlinable
  public func receive() -> Subscribers.Demand {
    receive(())
  }
}
