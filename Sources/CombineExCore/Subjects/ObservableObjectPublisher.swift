/// A publisher that publishes changes from observable objects.
///
/// It is the default `objectWillChange` of an ``ObservableObject``: the
/// object's ``Published`` properties call ``send()`` just before they change. Call ``send()``
/// yourself before changing state that is not `@Published`.
///
/// ```swift
/// let publisher = ObservableObjectPublisher()
/// let cancellable = publisher.sink { print("will change") }
/// publisher.send()
/// // Prints: will change
/// ```
///
/// It behaves like a `PassthroughSubject<Void, Never>` that never completes: each subscriber
/// receives one `Void` per ``send()`` while it has demand, and `send()` may be called from any
/// thread.
public final class ObservableObjectPublisher: Publisher, Sendable {
  /// The kind of values published by this publisher: `Void`, one per change.
  public typealias Output = Void

  /// The kind of errors this publisher might publish: it cannot fail.
  public typealias Failure = Never

  /// Its subscriptions describe themselves as "ObservableObjectPublisher" and show only their
  /// subscriber in a mirror, as Combine's do (``SubjectKind/observableObjectPublisher``).
  private let subject = PassthroughSubject<Void, Never>(kind: .observableObjectPublisher)

  /// Creates an observable object publisher.
  public init() {}

  /// Attaches the subscriber, which receives a value for every later ``send()``.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
    subject.receive(subscriber: subscriber)
  }

  /// Sends the changed value to the downstream subscribers.
  public func send() {
    subject.send(())
  }
}
