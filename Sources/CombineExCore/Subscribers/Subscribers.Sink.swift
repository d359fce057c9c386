import Synchronization

extension Publisher {
  /// Attaches a subscriber with closure-based behavior.
  ///
  /// The sink requests an unlimited number of values. Keep the returned ``AnyCancellable``:
  /// the subscription is cancelled when it is deinitialized.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher.sink(
  ///   receiveCompletion: { print("completion: \($0)") },
  ///   receiveValue: { print("value: \($0)") })
  /// // Prints: value: 1, value: 2, value: 3, completion: finished
  /// ```
  @inlinable
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(
      receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    subscribe(sink)
    return AnyCancellable(object: sink)
  }
}

extension Publisher where Failure == Never {
  /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
  ///
  /// ```swift
  /// let cancellable = Just(42).sink { print($0) }
  /// // Prints: 42
  /// ```
  @inlinable
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}

extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription.
  ///
  /// A sink accepts one subscription (later ones are cancelled at once), calls
  /// `receiveValue` for each value and `receiveCompletion` once. After completion it releases
  /// both closures, so objects they capture are freed even while the sink itself is kept.
  ///
  /// ```swift
  /// let sink = Subscribers.Sink<Int, Never>(
  ///   receiveCompletion: { _ in print("done") }, receiveValue: { print($0) })
  /// Just(1).subscribe(sink)
  /// // Prints: 1, done
  /// ```
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable,
    CustomStringConvertible, @unchecked Sendable
  {
    // @unchecked Sendable: `handlers`, `deliveryDepth` and `releasesHandlersAfterDelivery` are
    // only touched by the upstream's serialized calls (receive(_:) and receive(completion:))
    // and by deinit; `subscription` is guarded by `lock`; `phase` is atomic so the per-value
    // path takes no lock.

    /// The closures, retained once by this reference (manually, so that calling them does not
    /// retain and release their captures for every value: two atomic operations each time);
    /// `nil` once released after the completion. When the completion arrives from inside
    /// `receiveValue`, they are released when that call returns.
    @usableFromInline
    @exclusivity(unchecked)
    var handlers: Unmanaged<SinkHandlers<Input, Failure>>?

    /// How many `receiveValue` calls are running, nested (re-entrant sends).
    @usableFromInline
    @exclusivity(unchecked)
    var deliveryDepth: Int32 = 0

    /// Whether the completion arrived while `receiveValue` was running, so that the closures
    /// are released when it returns.
    @usableFromInline
    @exclusivity(unchecked)
    var releasesHandlersAfterDelivery = false

    /// The subscription, between `receive(subscription:)` and the end. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var subscription: (any AnyObject & Subscription)?

    @usableFromInline
    let lock = Lock()

    /// ``SinkPhase`` raw value. Written under `lock`; read without it on the value path.
    @usableFromInline
    let phase = Atomic<UInt8>(SinkPhase.awaitingSubscription.rawValue)

    /// The closure called with each value (a no-op after completion).
    public var receiveValue: (Input) -> Void {
      handlers?._withUnsafeGuaranteedRef { $0.receiveValue } ?? { _ in }
    }

    /// The closure called on completion (a no-op after completion).
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      handlers?._withUnsafeGuaranteedRef { $0.receiveCompletion } ?? { _ in }
    }

    /// A textual representation of the subscriber: `"Sink"`.
    public var description: String { "Sink" }

    /// Initializes a sink with the provided closures.
    @inlinable
    public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      handlers = Unmanaged.passRetained(
        SinkHandlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
    }

    deinit {
      handlers?.release()
    }

    /// Stores the subscription and requests unlimited values; cancels any later subscription.
    @inlinable
    public func receive(subscription: any Subscription) {
      let accepted = lock.withLock { () -> Bool in
        guard phase.load(ordering: .relaxed) == SinkPhase.awaitingSubscription.rawValue else {
          return false
        }
        self.subscription = classBound(subscription)
        phase.store(SinkPhase.subscribed.rawValue, ordering: .releasing)
        return true
      }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    /// Calls `receiveValue`, unless the sink was cancelled or completed.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      guard phase.load(ordering: .acquiring) == SinkPhase.subscribed.rawValue,
        let handlers
      else { return .none }
      deliveryDepth += 1
      // `handlers` holds its own retain, which is not given up while a delivery runs.
      handlers._withUnsafeGuaranteedRef { $0.receiveValue(value) }
      deliveryDepth -= 1
      if deliveryDepth == 0, releasesHandlersAfterDelivery { releaseHandlers() }
      return .none
    }

    /// Calls `receiveCompletion` once, then releases both closures.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
      let first = lock.withLock { () -> Bool in
        guard phase.load(ordering: .relaxed) != SinkPhase.terminated.rawValue else {
          return false
        }
        phase.store(SinkPhase.terminated.rawValue, ordering: .releasing)
        subscription = nil
        return true
      }
      guard first, let handlers else { return }
      handlers._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
      // Break cycles through the closures (`self.c = p.sink { self.x = $0 }`), but not under
      // a `receiveValue` call that is still running (a completion sent from inside it).
      if deliveryDepth > 0 {
        releasesHandlersAfterDelivery = true
      } else {
        releaseHandlers()
      }
    }

    @usableFromInline
    func releaseHandlers() {
      releasesHandlersAfterDelivery = false
      let released = handlers
      handlers = nil
      released?.release()
    }

    /// A subject forgot this cancelled sink (see ``SubscriptionReleasing``): no delivery runs
    /// on another thread and none will start, so the closures can go (when the delivery that
    /// cancelled, if any, has returned).
    @usableFromInline
    func upstreamDetached() {
      guard phase.load(ordering: .acquiring) == SinkPhase.terminated.rawValue, handlers != nil
      else { return }
      if deliveryDepth > 0 {
        releasesHandlersAfterDelivery = true
      } else {
        releaseHandlers()
      }
    }

    /// Cancels the subscription. Cancelling twice, or after completion, does nothing.
    ///
    /// The closures are released (so objects they capture are freed even while the sink itself
    /// is kept) once no value can be being delivered: for a sink attached to a subject (directly
    /// or through `map`, `filter`, `compactMap`), as soon as the subject has forgotten it, which
    /// is at once outside a delivery, or when the delivery in progress returns. Other upstreams
    /// may deliver on another thread while `cancel` runs, and the value path takes no lock:
    /// there the closures are released when the sink is.
    @inlinable
    public func cancel() {
      let taken = lock.withLock { () -> (any AnyObject & Subscription)? in
        guard phase.load(ordering: .relaxed) != SinkPhase.terminated.rawValue else {
          return nil
        }
        phase.store(SinkPhase.terminated.rawValue, ordering: .releasing)
        defer { subscription = nil }
        return subscription
      }
      taken?.cancel()
    }
  }
}

/// The closures of a ``Subscribers/Sink``.
@usableFromInline
final class SinkHandlers<Input, Failure: Error> {
  @usableFromInline
  let receiveValue: (Input) -> Void

  @usableFromInline
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  @inlinable
  init(
    receiveValue: @escaping (Input) -> Void,
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
  ) {
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
  }
}

/// Where a ``Subscribers/Sink`` (or another single-subscription subscriber) is in its life.
@usableFromInline
enum SinkPhase: UInt8 {
  case awaitingSubscription
  case subscribed
  case terminated
}

/// Returns the subscription as a class-bound existential (16 bytes instead of 40), boxing the
/// rare subscription that is a value type.
@inlinable
func classBound(_ subscription: any Subscription) -> any AnyObject & Subscription {
  subscription._classBoundSubscription ?? BoxedSubscription(subscription)
}

/// Holds a subscription that is not a class, for ``classBound(_:)``.
@usableFromInline
final class BoxedSubscription: Subscription {
  @usableFromInline
  let wrapped: any Subscription

  @usableFromInline
  init(_ wrapped: any Subscription) {
    self.wrapped = wrapped
  }

  @usableFromInline
  var combineIdentifier: CombineIdentifier { wrapped.combineIdentifier }

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    wrapped.request(demand)
  }

  @usableFromInline
  func cancel() {
    wrapped.cancel()
  }
}
