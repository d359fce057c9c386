import CombineExCore

extension Publishers {
  /// A publisher whose closure drives each subscription by hand: the safe way to wrap a
  /// callback API.
  ///
  /// For every subscriber, the closure receives a ``CustomSubscriptionHandler`` through which it
  /// sends that subscriber's values and completion, typically from the callbacks of the API it
  /// wraps:
  ///
  /// ```swift
  /// final class Sensor: @unchecked Sendable {
  ///   var onReading: ((Double) -> Void)?
  ///   func start() { onReading?(21.5) }
  ///   func stop() { onReading = nil }
  /// }
  /// let sensor = Sensor()
  /// let readings = Publishers.Custom<Double, Never> { handler in
  ///   sensor.onReading = { handler.sendValue($0) }
  ///   sensor.start()
  /// }
  /// let cancellable = readings.sink { print($0) }
  /// // Prints: 21.5
  /// ```
  ///
  /// - **Per subscription.** The closure runs once per subscription, on the subscribing thread,
  ///   right after the subscriber received its subscription (not at all if it cancelled in
  ///   `receive(subscription:)`). The publisher is therefore cold.
  /// - **Demand.** The subscriber never receives more values than it asked for: a value sent
  ///   without demand waits, in order, and is delivered when the subscriber asks for more.
  ///   ``CustomSubscriptionHandler/demand`` shows the outstanding demand, so a source that can
  ///   hold back (a paged API, say) sends only what was asked for.
  /// - **Completion.** The first ``CustomSubscriptionHandler/sendCompletion(_:)`` counts; it is
  ///   delivered after the values still waiting. Values and completions sent afterwards are
  ///   dropped.
  /// - **Cancellation.** After the subscriber cancels, everything sent is dropped and the
  ///   subscriber is released; ``CustomSubscriptionHandler/cancelled`` becomes `true`, so the
  ///   wrapped work can be stopped (observe it, or check its `value`).
  /// - **Threading.** The handler may be called from any threads at once; the subscriber
  ///   receives one event at a time. A value sent from inside the subscriber's `receive` (on
  ///   the delivering thread) is delivered after that `receive` returns.
  public struct Custom<Output, Failure: Error>: Publisher {
    /// Drives one subscription; called once per subscriber.
    let subscriptionHandler: @Sendable (any CustomSubscriptionHandler<Output, Failure>) -> Void

    /// Creates a publisher that calls `subscriptionHandler` with a handler for each
    /// subscription.
    public init(
      _ subscriptionHandler:
        @escaping @Sendable (any CustomSubscriptionHandler<Output, Failure>) -> Void
    ) {
      self.subscriptionHandler = subscriptionHandler
    }

    /// Hands the subscriber its subscription, then calls the closure with its handler.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = CustomSubscription(downstream: subscriber)
      subscriber.receive(subscription: subscription)
      guard !subscription.isCancelled else { return }
      subscriptionHandler(subscription)
    }
  }
}

// Each subscription runs the closure anew: the publisher is cold.
extension Publishers.Custom: ColdPublisher {}

extension Publishers.Custom: Sendable {}
