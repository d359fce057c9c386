/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value as soon as it requests any demand, then every
/// value sent afterwards. A subscriber without demand when a value is sent receives the latest
/// value on its next request (values in between are skipped for it).
///
/// ```swift
/// let subject = CurrentValueSubject<Int, Never>(1)
/// let cancellable = subject.sink { print($0) }  // Prints: 1
/// subject.send(2)  // Prints: 2
/// subject.value = 3  // Prints: 3
/// print(subject.value)  // Prints: 3
/// ```
///
/// Threading follows ``PassthroughSubject``: `send` returns after every subscriber with demand
/// has received the value, on the sending thread. `value` can be read and written from any
/// thread, and from inside a subscriber. The stored value and the order of deliveries always
/// agree: a send that waits for another thread's delivery stores its value only when its own
/// delivery starts. A subscriber attached from another thread during a delivery waits for it
/// too, then receives the current value (on its demand) on its own thread.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
  @usableFromInline
  let core: SubjectCore<Output, Failure>

  /// The value as of the last `send`. Guarded by `core.lock`. (Unchecked exclusivity: the lock
  /// serializes every access, and `send` swaps it out, which would otherwise cost a runtime
  /// access check, about 150 instructions per send.)
  @usableFromInline
  @exclusivity(unchecked)
  var currentValue: Output

  /// Whether a completion was sent. Guarded by `core.lock`.
  @usableFromInline
  @exclusivity(unchecked)
  var isComplete = false

  /// The value wrapped by this subject, published as a new element whenever it changes.
  ///
  /// Setting it is the same as calling ``send(_:)``, except after the completion: then, as in
  /// Combine, the new value is stored (and not sent).
  @inlinable
  public var value: Output {
    get { core.lock.withLock { currentValue } }
    set {
      // As in `send`, the replaced value is released after the lock.
      var replaced = newValue
      core.perform(.value(newValue)) { _ in
        swap(&currentValue, &replaced)
        return !isComplete
      }
    }
  }

  /// Creates a current value subject with the given initial value.
  @inlinable
  public init(_ value: Output) {
    currentValue = value
    core = SubjectCore(.currentValue, currentValue: value)
    core.owner = self
  }

  /// Creates a subject of another kind that replays its current value (`Published`'s, whose
  /// subscriptions describe themselves as Combine's do).
  init(_ value: Output, kind: SubjectKind) {
    currentValue = value
    core = SubjectCore(kind, currentValue: value)
    core.owner = self
  }

  deinit {
    core.cancelUpstream()
  }

  /// Attaches a subscriber, which receives the current value on its first demand.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    core.perform(core.attachEvent(for: subscriber))
  }

  /// Sets the value and sends it to every subscriber. Ignored after a completion.
  @inlinable
  public func send(_ input: Output) {
    // The replaced value is swapped out and released after the lock: its deinit may be user
    // code that reads `value`.
    var replaced = input
    core.perform(.value(input)) { _ in
      guard !isComplete else { return false }
      swap(&currentValue, &replaced)
      return true
    }
  }

  /// Sends a completion to every subscriber. Later values are not sent; `send(_:)` ignores
  /// them, and setting ``value`` stores the new value, as in Combine.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    core.perform(.completion(completion)) { _ in
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

extension CurrentValueSubject: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: `currentValue` and `isComplete` are guarded by `core.lock`; the rest
  // lives in `core`, which is thread-safe.
}
