/// A protocol indicating that an activity or action supports cancellation.
///
/// Calling ``cancel()`` frees up any allocated resources and stops side effects such as timers,
/// network access, or disk I/O. Cancelling twice is harmless.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send(1)  // Prints: 1
/// cancellable.cancel()
/// subject.send(2)  // Prints nothing: the subscription is gone.
/// ```
public protocol Cancellable {
  /// Cancels the activity.
  func cancel()
}
