/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// Subscribing to a connectable publisher attaches the subscriber but starts nothing: values
/// flow once ``connect()`` is called, so that every subscriber can be attached first. Call
/// `cancel()` on the returned cancellable to stop the publication. Use
/// ``autoconnect()`` to connect on the first subscription instead.
///
/// ```swift
/// let connectable = [1, 2, 3].publisher.makeConnectable()
/// let first = connectable.sink { print("first", $0) }
/// let second = connectable.sink { print("second", $0) }
/// let connection = connectable.connect()
/// // Prints: first 1, second 1, first 2, second 2, first 3, second 3
/// ```
public protocol ConnectablePublisher<Output, Failure>: Publisher {
  /// Connects to the publisher, allowing it to produce elements, and returns an instance with
  /// which to cancel publishing.
  func connect() -> any Cancellable
}
