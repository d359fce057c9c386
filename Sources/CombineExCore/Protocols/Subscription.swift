/// A protocol representing the connection of a subscriber to a publisher.
///
/// A subscription is how a subscriber asks for values (``request(_:)``) and stops them
/// (``Cancellable/cancel()``). Both may be called from any thread, at any time, including from
/// inside the subscriber's own `receive` methods.
///
/// ```swift
/// final class OneAtATime: Subscriber {
///   typealias Input = Int
///   typealias Failure = Never
///   var subscription: (any Subscription)?
///   func receive(subscription: any Subscription) {
///     self.subscription = subscription
///     subscription.request(.max(1))
///   }
///   func receive(_ input: Int) -> Subscribers.Demand { .max(1) }  // one more, each time
///   func receive(completion: Subscribers.Completion<Never>) { subscription = nil }
/// }
/// ```
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Tells a publisher that it may send more values to the subscriber.
  ///
  /// Demand accumulates: two requests of `.max(1)` allow two values. Requesting `.none` is
  /// allowed and has no effect.
  func request(_ demand: Subscribers.Demand)
}
