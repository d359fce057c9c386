import CombineExCore

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension PropertyProtocol {
  /// Derives a property from a publisher transform of this property's stream: the property
  /// takes every value the transformed stream publishes.
  ///
  /// ```swift
  /// let clicks = MutableProperty(0)
  /// let total = clicks.lift { $0.scan(0, +) }  // a running sum of every value set
  /// clicks.value = 2
  /// clicks.value = 3
  /// print(total.value)  // Prints: 5
  /// ```
  ///
  /// `transform` receives the property's stream (its current value, then every change) and is
  /// called once, before `lift` returns (so, unlike the original CombineEx's, it need not be
  /// `@Sendable`). The transformed publisher is subscribed to once, at once, like
  /// ``Property/init(initial:then:)``: the result is an eager composition, and its state lives
  /// as long as the returned property or any of its subscribers. When the transformed stream
  /// finishes, the property keeps its last value and its subscribers receive `.finished`.
  ///
  /// - Precondition: The transformed stream must publish a value when it is subscribed to, on
  ///   the subscribing thread, before `subscribe` returns (the property needs a first value).
  ///   A transform that drops the first value (`dropFirst()`, a `filter` that rejects it) or
  ///   delivers it later (`receive(on:)`) stops the program with a
  ///   `CombineEx API violation: lift(_:)` message.
  public func lift<U>(
    _ transform: (AnyPublisher<Output, Never>) -> some Publisher<U, Never>
  ) -> Property<U> {
    let relay = LiftRelay<U>()
    transform(eraseToAnyPublisher()).subscribe(relay)
    guard let storage = relay.takeStorage(createdOn: pthread_self()) else {
      fatalError(
        "CombineEx API violation: lift(_:): the transformed publisher did not publish a value "
          + "when subscribed. A lifted property needs a first value at once: make sure the "
          + "transform keeps the property's current value (no dropFirst, filter or receive(on:) "
          + "in front of it), or start it with prepend(_:).")
    }
    return Property(
      currentValue: { storage.value }, publisher: AnyPublisher(storage), retaining: storage)
  }
}

/// The subscriber of a lifted stream: its first value creates the ``PropertyStorage`` behind the
/// lifted property, and every later value and the completion go to that storage.
///
/// The upstream calls a subscriber serially, so the storage exists (created inside the first
/// `receive`) before any later value arrives, on whichever thread. The storage holds the
/// subscription (and so this relay); the relay refers to the storage weakly, so the upstream
/// never keeps the lifted property alive.
private final class LiftRelay<Output>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: `state` is guarded by `lock`; the storage is only called outside it.
  typealias Failure = Never

  private enum State {
    /// No value yet; `subscription` arrives first.
    case awaitingFirstValue(subscription: (any Subscription)?)
    /// The first value, delivered on `thread`, created the storage, which `lift` has not taken
    /// yet.
    case created(PropertyStorage<Output>, thread: pthread_t, subscription: (any Subscription)?)
    /// Feeding the storage, which the lifted property owns.
    case following(weak: WeakStorage, subscription: (any Subscription)?)
    /// Cancelled, finished, or abandoned by `lift` for want of a first value.
    case ended
  }

  /// A weak reference to the storage (an enum payload cannot be `weak` itself).
  private struct WeakStorage {
    weak var storage: PropertyStorage<Output>?
  }

  private let lock = Lock()
  private var state = State.awaitingFirstValue(subscription: nil)

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingFirstValue(nil) = state else { return false }
      state = .awaitingFirstValue(subscription: subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.unlimited)
  }

  func receive(_ input: Output) -> Subscribers.Demand {
    let target = lock.withLock { () -> PropertyStorage<Output>? in
      switch state {
      case .awaitingFirstValue(let subscription):
        state = .created(PropertyStorage(input), thread: pthread_self(), subscription: subscription)
        return nil
      case .created(let storage, _, _):
        return storage
      case .following(let weak, _):
        return weak.storage
      case .ended:
        return nil
      }
    }
    target?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    // The subscription is over: forget it (it may hold the upstream), keep the storage.
    let target = lock.withLock { () -> PropertyStorage<Output>? in
      switch state {
      case .created(let storage, let thread, _):
        state = .created(storage, thread: thread, subscription: nil)
        return storage
      case .following(let weak, _):
        state = .ended
        return weak.storage
      case .awaitingFirstValue:
        state = .awaitingFirstValue(subscription: nil)
        return nil
      case .ended:
        return nil
      }
    }
    target?.finish()
  }

  /// Hands the storage created by the first value to `lift`, which makes the storage own this
  /// relay's subscription; `nil` (and the subscription cancelled) if no value has arrived on
  /// `thread`, the subscribing thread. (A first value delivered by another thread, from a
  /// `receive(on:)`, may or may not have arrived by now: it is refused either way, so that the
  /// misuse is always reported.)
  func takeStorage(createdOn thread: pthread_t) -> PropertyStorage<Output>? {
    let (storage, abandoned) = lock.withLock {
      () -> (PropertyStorage<Output>?, (any Subscription)?) in
      switch state {
      case .created(let storage, let creator, let subscription)
      where pthread_equal(creator, thread) != 0:
        state = .following(weak: WeakStorage(storage: storage), subscription: subscription)
        return (storage, nil)
      case .awaitingFirstValue(let subscription), .created(_, _, let subscription):
        state = .ended
        return (nil, subscription)
      case .following, .ended:
        return (nil, nil)
      }
    }
    abandoned?.cancel()
    storage?.hold(AnyCancellable(self))
    return storage
  }

  func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      defer { state = .ended }
      switch state {
      case .awaitingFirstValue(let subscription), .created(_, _, let subscription),
        .following(_, let subscription):
        return subscription
      case .ended:
        return nil
      }
    }
    subscription?.cancel()
  }
}
