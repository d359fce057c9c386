/// A namespace for symbols related to subscriptions.
public enum Subscriptions {}

extension Subscriptions {
  /// Returns the "empty" subscription: a subscription that ignores requests and cancellation.
  ///
  /// Use it for a subscriber that must receive a subscription but will never receive anything
  /// else (``Empty`` with `completeImmediately: false` sends it). Publishers of the core that
  /// complete at once (``Empty``, ``Fail``) send a subscription of their own instead, which
  /// remembers a cancel made from inside `receive(subscription:)`, so that they send no
  /// completion after it.
  public static var empty: any Subscription { EmptySubscription.shared }
}

/// The subscription behind ``Subscriptions/empty``. It describes itself as Combine's does
/// ("Empty", with no children), in `print` output and in debuggers.
@usableFromInline
final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, Sendable
{
  @usableFromInline
  static let shared = EmptySubscription()

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {}

  @usableFromInline
  func cancel() {}

  @usableFromInline
  var description: String { "Empty" }

  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  var playgroundDescription: Any { description }
}
