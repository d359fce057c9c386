import CombineExCore

/// What a debugger, a playground or a `dump` shows of a subscriber or a subscription: its
/// `description`, its `playgroundDescription` (when it is a string) and its custom mirror's
/// children, each `nil` when the value does not customize it (as Combine's subscriptions of
/// some operators do not).
struct DebuggerView {
  let description: String?
  let playgroundDescription: String?
  let children: [Mirror.Child]?

  init(_ value: Any) {
    description = (value as? any CustomStringConvertible)?.description
    playgroundDescription =
      (value as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
    children = (value as? any CustomReflectable).map { Array($0.customMirror.children) }
  }

  /// The labels of the mirror's children (`nil` without a custom mirror).
  var labels: [String?]? { children?.map(\.label) }

  /// The value of the mirror's child labelled `label`, if any.
  func child(_ label: String) -> Any? {
    children?.first { $0.label == label }?.value
  }

  /// Whether the value shows nothing of its own: no description, playground value or mirror.
  var isPlain: Bool { description == nil && playgroundDescription == nil && children == nil }
}

/// A publisher that keeps the subscriber attached to it, as it was attached (not erased), so a
/// test can look at it, and can hand it a subscription and values.
final class AttachedSubscriberUpstream<Output, Failure: Error>: Publisher {
  /// The subscriber attached last.
  private(set) var attached: Any?
  private var subscriber: AnySubscriber<Output, Failure>?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    attached = subscriber
    self.subscriber = AnySubscriber(subscriber)
  }

  /// Hands the attached subscriber `subscription`.
  func send(subscription: any Subscription) {
    subscriber?.receive(subscription: subscription)
  }

  /// Sends a value to the attached subscriber; returns its demand.
  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    subscriber?.receive(value) ?? .none
  }
}

/// A subscription that does nothing, with a description of its own.
final class NamedTestSubscription: Subscription, CustomStringConvertible {
  var description: String { "NamedTestSubscription" }
  func request(_ demand: Subscribers.Demand) {}
  func cancel() {}
}

/// A subscriber that keeps the subscription it receives, and requests nothing.
final class SubscriptionKeeper<Input, Failure: Error>: Subscriber {
  private(set) var subscription: (any Subscription)?
  func receive(subscription: any Subscription) { self.subscription = subscription }
  func receive(_ input: Input) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Failure>) {}
}
