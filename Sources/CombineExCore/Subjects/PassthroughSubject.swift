/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a passthrough subject has no initial value or buffer: a
/// value sent while a subscriber has no outstanding demand is dropped for that subscriber.
/// After a completion, later values are ignored and new subscribers receive only the
/// completion.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send(1)
/// subject.send(2)
/// subject.send(completion: .finished)
/// subject.send(3)  // Ignored: the subject has completed.
/// // Prints: 1, 2
/// ```
///
/// ## Threading
/// As in Combine, `send` is synchronous and may be called from any thread: it returns after
/// every subscriber attached when it began (with demand) has received the value or the
/// completion, on the calling thread. Each subscriber receives values one at a time.
/// - A `send` made from inside a subscriber (on the delivering thread) is delivered at once,
///   nested inside the current delivery.
/// - A `send` from another thread while a delivery is in progress waits for it to end (the
///   thread sleeps), then delivers on its own thread. Subscribing from another thread during a
///   delivery waits the same way.
/// - `cancel()` and `request(_:)` never wait: a cancelled subscriber receives nothing more at
///   once, even while another thread is delivering.
///
/// The cost is Combine's too: a subscriber that synchronously waits for another thread which
/// sends to the same subject (for example with `DispatchQueue.sync`) deadlocks.
///
/// ## Upstream publishers
/// A subject subscribed to publishers (`publisher.subscribe(subject)`) requests unlimited values
/// from them when its first subscriber asks for values, as Combine's does, so that values
/// published before anyone subscribed are not lost.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// Creates a subject.
  @inlinable
  public init() {
    core = SubjectCore(.passthrough)
    core.owner = self
  }

  /// Creates a subject of another kind that replays nothing (`ObservableObjectPublisher`'s,
  /// whose subscriptions describe and reflect themselves as Combine's do).
  init(kind: SubjectKind) {
    core = SubjectCore(kind)
    core.owner = self
  }

  deinit {
    core.cancelUpstream()
  }

  /// Attaches a subscriber. After a completion, the subscriber receives only the completion.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    core.perform(core.attachEvent(for: subscriber))
  }

  /// Sends a value to every subscriber that has demand for it.
  @inlinable
  public func send(_ input: Output) {
    core.perform(.value(input))
  }

  /// Sends a completion to every subscriber. Values and completions sent afterwards are
  /// ignored.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    core.perform(.completion(completion))
  }

  /// Keeps an upstream subscription (when the subject subscribes to a publisher) and requests
  /// unlimited values from it once a subscriber of the subject has asked for values. It is
  /// cancelled when the subject is deinitialized.
  public func send(subscription: any Subscription) {
    core.receiveUpstream(subscription)
  }
}

extension PassthroughSubject: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: all state lives in `core`, which is thread-safe.
}
