/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}

extension Subscriptions {
  /// Returns the "empty" subscription: a subscription that ignores requests and cancellation.
  ///
  /// Publishers that complete at once (like ``Empty`` or ``Fail``) send it before their
  /// completion, because every subscriber must receive a subscription first.
  public static var empty: any Subscription { EmptySubscription.shared }
}

/// The subscription behind ``Subscriptions/empty``.
@usableFromInline
final class EmptySubscription: Subscription, Sendable {
  @usableFromInline
  static let shared = EmptySubscription()

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {}

  @usableFromInline
  func cancel() {}
}
