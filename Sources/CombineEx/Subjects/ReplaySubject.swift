import CombineExCore

/// A subject that keeps the latest values sent to it and replays them to each new subscriber,
/// then sends it every later value, and the completion.
///
/// `ReplaySubject(bufferSize: n)` keeps the `n` latest values. A new subscriber receives them,
/// oldest first, as its demand allows, then the values sent afterwards; after a completion it
/// receives the kept values, then the completion. `bufferSize: 0` keeps nothing (a
/// `PassthroughSubject`); `bufferSize: 1` with a value sent is a `CurrentValueSubject` without
/// an initial value.
///
/// ```swift
/// let subject = ReplaySubject<Int, Never>(bufferSize: 2)
/// subject.send(1)
/// subject.send(2)
/// subject.send(3)
/// let cancellable = subject.sink { print($0) }  // Prints: 2, 3 — the two latest
/// subject.send(4)  // Prints: 4
/// ```
///
/// ## Demand
/// Values are never delivered beyond a subscriber's demand. A subscriber that has no demand
/// when a value is sent is *behind*: on its next request it receives the kept values it has
/// not received, oldest first, at most `bufferSize` of them (older ones have left the buffer),
/// exactly as a new subscriber would. The completion reaches a subscriber after the values it
/// is owed, so a subscriber that stops asking before the end never receives it.
///
/// ## Threading
/// The same as `PassthroughSubject` (Combine's contract): `send` may be called from any
/// thread and returns after every subscriber with demand has received the value, on the
/// calling thread; a send, a completion or a subscription from another thread during a
/// delivery waits for it; `cancel` and `request` never wait; a value sent from inside a
/// subscriber is delivered at once, nested. The subject is built on the same machinery as
/// Combine's subjects in CombineExCore, so every subject of the package keeps one contract.
///
/// ## Upstream publishers
/// Like a `CurrentValueSubject`, it requests unlimited values from a publisher it is subscribed
/// to (`publisher.subscribe(subject)`) at once, so that it keeps what the publisher sends before
/// anyone subscribes.
public final class ReplaySubject<Output, Failure: Error>: Subject {
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// The kept values (the core's replay buffer). Appended by the thread that holds the core's
  /// delivery token, from `send`'s commit.
  @usableFromInline
  let buffer: SubjectReplayBuffer<Output>

  /// Whether a completion was sent. Guarded by `core.lock`.
  @usableFromInline
  var isComplete = false

  /// Creates a subject that replays the `bufferSize` latest values to new subscribers.
  ///
  /// - Parameter bufferSize: How many values to keep and replay; zero or more.
  public init(bufferSize: Int) {
    precondition(
      bufferSize >= 0,
      "CombineEx API violation: ReplaySubject(bufferSize: \(bufferSize)). The buffer size must "
        + "be zero or more")
    core = SubjectCore(replayingLatest: bufferSize)
    buffer = core.replayBuffer!
    core.owner = self
  }

  deinit {
    core.cancelUpstream()
  }

  /// Attaches a subscriber: it receives the kept values on demand, then every later value, and
  /// the completion.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    core.perform(core.attachEvent(for: subscriber))
  }

  /// Keeps the value (dropping the oldest beyond the buffer size) and sends it to every
  /// subscriber with demand. Ignored after a completion.
  @inlinable
  public func send(_ input: Output) {
    // The value the buffer evicts is released after the lock, as a `CurrentValueSubject`
    // releases the value it replaces: its deinit may be user code that calls the subject.
    var evicted: Output?
    core.perform(.value(input)) { _ in
      guard !isComplete else { return false }
      // Committed atomically with taking the delivery token: the buffer and the order of
      // deliveries always agree.
      evicted = buffer.append(input)
      return true
    }
    _ = evicted
  }

  /// Sends the completion to every subscriber (after the values a subscriber is owed). Later
  /// values are ignored; new subscribers receive the kept values, then the completion.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    core.perform(.completion(completion)) { _ in
      guard !isComplete else { return false }
      isComplete = true
      return true
    }
  }

  /// Keeps an upstream subscription (when the subject subscribes to a publisher) and requests
  /// unlimited values from it. It is cancelled when the subject is deinitialized.
  public func send(subscription: any Subscription) {
    core.receiveUpstream(subscription)
  }
}

extension ReplaySubject {
  /// `true`: every subscriber is attached to the subject's core at once, so a `sink` keeps its
  /// closures in the subscription the subject hands out (one object fewer per subscription).
  @inlinable
  public static var _attachesSubscribersToSubject: Bool { true }
}

extension ReplaySubject: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: `isComplete` is guarded by `core.lock`; the buffer is touched only by
  // the thread holding the core's delivery token; the rest lives in `core`, which is
  // thread-safe.
}
