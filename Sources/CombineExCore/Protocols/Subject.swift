/// A publisher that exposes a method for outside callers to publish elements.
///
/// A subject broadcasts values to its subscribers. ``PassthroughSubject`` only forwards what it
/// is sent; ``CurrentValueSubject`` also keeps the latest value and replays it to new
/// subscribers.
///
/// ```swift
/// let subject = PassthroughSubject<String, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send("hello")  // Prints: hello
/// subject.send(completion: .finished)
/// ```
public protocol Subject<Output, Failure>: AnyObject, Publisher {
  /// Sends a value to the subscribers.
  func send(_ value: Output)

  /// Sends a completion signal to the subscribers. Later sends are ignored.
  func send(completion: Subscribers.Completion<Failure>)

  /// Sends a subscription to the subject, which requests unlimited values from it.
  ///
  /// This is how a subject subscribes to an upstream publisher (see `subscribe(_:)` on
  /// ``Publisher`` with a subject argument).
  func send(subscription: any Subscription)
}

extension Subject where Output == Void {
  /// Sends a void value to the subscribers.
  @inlinable
  public func send() {
    send(())
  }
}
