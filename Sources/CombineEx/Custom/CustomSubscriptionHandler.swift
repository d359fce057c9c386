import CombineExCore

extension Publishers {
  /// What the closure of a ``Publishers/Custom`` publisher (or a ``DeferredCustom``) receives
  /// for each subscription: the way to send that subscriber values and a completion, and to see
  /// its demand and whether it cancelled.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let reading = Publishers.Custom<Int, Offline> { handler in
  ///   handler.sendValue(1)
  ///   handler.sendValue(2)
  ///   handler.sendCompletion(.finished)
  /// }
  /// let cancellable = reading.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, 2, finished
  /// ```
  ///
  /// Every method is safe to call from any thread, at any time: values and a completion sent
  /// after the subscriber cancelled, or after a completion, are dropped; values sent while the
  /// subscriber has no demand wait, in order, until it asks for more. See ``Publishers/Custom``.
  ///
  /// The handler is `Sendable` (unlike the original CombineEx's), so that the callbacks of the
  /// API it wraps may capture it in Swift 6 mode, whatever thread they run on.
  public protocol CustomSubscriptionHandler<Output, Failure>: Sendable {
    /// The kind of values the subscriber receives.
    associatedtype Output
    /// The kind of errors the subscriber may receive.
    associatedtype Failure: Error

    /// Sends `value` to the subscriber: now if it has demand, otherwise once it asks for more.
    /// Dropped after a completion or a cancel.
    func sendValue(_ value: Output)

    /// Ends the subscription with `completion`, after the values still waiting for demand.
    /// Only the first completion counts; dropped after a cancel.
    func sendCompletion(_ completion: Subscribers.Completion<Failure>)

    /// Whether the subscriber cancelled: `false`, then `true` once it cancels.
    var cancelled: Property<Bool> { get }

    /// How many more values the subscriber asked for and has not received yet (`.none` once
    /// the subscription ended). It changes when the subscriber asks for more and as values
    /// are delivered.
    var demand: Property<Subscribers.Demand> { get }
  }
}
