import CombineExCore

/// A cold publisher whose closure drives each subscription by hand: `Publishers/Custom`
/// under the name the original CombineEx gives its deferred form.
///
/// ```swift
/// let numbers = DeferredCustom<Int, Never> { handler in
///   handler.sendValue(1)
///   handler.sendCompletion(.finished)
/// }
/// let first = numbers.sink { print($0) }  // Prints: 1
/// let erased: AnyDeferredPublisher<Int, Never> = numbers.eraseToAnyDeferredPublisher()
/// ```
///
/// Nothing runs until a subscriber attaches; each subscription runs the closure once, with its
/// own `Publishers/CustomSubscriptionHandler`. See `Publishers/Custom` for the rules
/// (demand, completion, cancellation, threading).
public struct DeferredCustom<Output, Failure: Error>: ColdPublisher, Sendable {
  /// Drives one subscription; called once per subscriber.
  private let subscriptionHandler:
    @Sendable (any Publishers.CustomSubscriptionHandler<Output, Failure>) -> Void

  /// Makes the publisher each subscription attaches to: a `Publishers/Custom` with this
  /// closure.
  public var createPublisher: () -> any Publisher<Output, Failure> {
    { [subscriptionHandler] in Publishers.Custom(subscriptionHandler) }
  }

  /// Creates a cold publisher that calls `subscriptionHandler` with a handler for each
  /// subscription.
  public init(
    subscriptionHandler:
      @escaping @Sendable (any Publishers.CustomSubscriptionHandler<Output, Failure>) -> Void
  ) {
    self.subscriptionHandler = subscriptionHandler
  }

  /// Starts a new subscription: the closure runs for this subscriber.
  public func receive<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    Publishers.Custom(subscriptionHandler).receive(subscriber: subscriber)
  }
}
