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

  /// This subscription as a class-bound existential, or `nil` when it is not a class.
  ///
  /// An implementation detail of the library's subscribers, which keep their subscription in 16
  /// bytes instead of 40. Not part of Combine's API: never implement it; every class gets the
  /// default, which returns `self` without the runtime cast (a conformance lookup) that
  /// `as? any AnyObject & Subscription` would cost on every subscription.
  var _classBoundSubscription: (any AnyObject & Subscription)? { get }
}

extension Subscription {
  /// `nil`: a subscription that is not a class is boxed by the subscribers that need a class.
  public var _classBoundSubscription: (any AnyObject & Subscription)? { nil }
}

extension Subscription where Self: AnyObject {
  /// `self`, chosen statically for every class that conforms.
  public var _classBoundSubscription: (any AnyObject & Subscription)? { self }
}
