import CombineEx

/// The publisher behind ``Effect/cancellable(id:cancelInFlight:)``: each subscription is a
/// ``CancellableRun`` filed in `registry` (the table of the store that runs the effect) under
/// the id while it is in flight.
@usableFromInline
struct CancellableEffectPublisher<Upstream: Publisher>: Publisher {
  @usableFromInline
  typealias Output = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  let upstream: Upstream
  let key: CancellationKey
  let cancelInFlight: Bool
  /// The table of the store that runs the effect (or the process-wide one).
  let registry: CancellationRegistry

  @usableFromInline
  init(
    upstream: Upstream, key: CancellationKey, cancelInFlight: Bool, registry: CancellationRegistry
  ) {
    self.upstream = upstream
    self.key = key
    self.cancelInFlight = cancelInFlight
    self.registry = registry
  }

  @usableFromInline
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    if cancelInFlight {
      registry.cancelRuns(key)  // the old runs stop before the new one starts
    }
    let run = CancellableRun(downstream: subscriber, key: key, registry: registry)
    registry.insert(run, for: key)
    upstream.receive(subscriber: run)
  }
}

/// One subscription of a cancellable effect: it relays the upstream to the downstream, and
/// when the registry cancels it, it cancels the upstream and *finishes* the downstream.
///
/// ## State
/// Under `lock`: the phase (`awaitingSubscription`, `active`, `over`), the upstream
/// subscription, the downstream, how many calls to the downstream are in progress
/// (`deliveries`: the subscription hand-off and values, which may nest when the downstream
/// requests re-entrantly), and whether the registry asked to finish.
///
/// The registry's cancel may come from any thread. If no call to the downstream is in
/// progress, the canceller finishes the downstream itself; otherwise it only cancels the
/// upstream and leaves a note, and the thread delivering finishes the downstream when its call
/// returns. So the downstream never receives two calls at once, and receives nothing after
/// `.finished`.
final class CancellableRun<Downstream: Subscriber>: Subscriber, Subscription, RegisteredRun,
  @unchecked Sendable
{
  // @unchecked Sendable: every stored property is guarded by `lock`, and the downstream is only
  // called by one thread at a time, as described above.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private enum Phase {
    case awaitingSubscription
    case active
    case over
  }

  private let lock = Lock()
  private let key: CancellationKey
  private let registry: CancellationRegistry
  private var phase = Phase.awaitingSubscription
  /// The downstream until the run is over: the subscriber itself when it is an object (almost
  /// always), otherwise a ``BoxedDownstream``. Not a `Downstream?`: this class runs
  /// unspecialized (it is subscribed through a type-erased publisher), and every copy, test or
  /// release of a generic optional looked up `Optional<Downstream>` in the runtime's metadata
  /// cache and ran its generic value witnesses (a fifth of `j7`).
  private var downstreamObject: AnyObject?
  /// Whether `downstreamObject` is the subscriber itself.
  private let downstreamIsObject: Bool
  private var upstream: (any Subscription)?
  private var deliveries = 0
  private var finishRequested = false

  init(downstream: Downstream, key: CancellationKey, registry: CancellationRegistry) {
    downstreamIsObject =
      Downstream.self is AnyObject.Type
      && MemoryLayout<Downstream>.size == MemoryLayout<AnyObject>.size
    downstreamObject =
      downstreamIsObject
      ? unsafeBitCast(downstream, to: AnyObject.self) : BoxedDownstream(downstream)
    self.key = key
    self.registry = registry
  }

  /// The downstream kept in `object` (a value of `downstreamObject`).
  private func downstream(_ object: AnyObject) -> Downstream {
    downstreamIsObject
      ? unsafeBitCast(object, to: Downstream.self)
      : unsafeDowncast(object, to: BoxedDownstream<Downstream>.self).value
  }

  // MARK: Upstream side

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> AnyObject? in
      guard case .awaitingSubscription = phase else { return nil }
      phase = .active
      upstream = subscription
      deliveries += 1
      return downstreamObject
    }
    guard let target else {
      subscription.cancel()
      return
    }
    downstream(target).receive(subscription: self)
    deliveryEnded()
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let target = lock.withLock { () -> AnyObject? in
      guard case .active = phase, !finishRequested else { return nil }
      deliveries += 1
      return downstreamObject
    }
    guard let target else { return .none }
    let demand = downstream(target).receive(input)
    return deliveryEnded() ? .none : demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> AnyObject? in
      // After the registry's cancel, the thread delivering (or the canceller) finishes.
      guard case .active = phase, !finishRequested else { return nil }
      phase = .over
      upstream = nil
      defer { downstreamObject = nil }
      return downstreamObject
    }
    guard let target else { return }
    registry.remove(self, for: key)
    downstream(target).receive(completion: completion)
  }

  // MARK: Downstream side

  func request(_ demand: Subscribers.Demand) {
    let target = lock.withLock { () -> (any Subscription)? in
      guard case .active = phase, !finishRequested else { return nil }
      return upstream
    }
    target?.request(demand)
  }

  func cancel() {
    let target = lock.withLock { () -> (any Subscription)? in
      if case .over = phase { return nil }
      phase = .over
      downstreamObject = nil
      defer { upstream = nil }
      return upstream
    }
    registry.remove(self, for: key)
    target?.cancel()
  }

  // MARK: Registry side

  func cancelFromRegistry() {
    // Decided under the lock into locals rather than returned as a generic enum or tuple: this
    // class runs unspecialized, and each generic result type is a look-up in the runtime's
    // metadata cache.
    // The registry took this run out of its table before calling: no `registry.remove` here,
    // nor when the delivering thread finishes for it (`deliveryEnded()`).
    var upstreamToCancel: (any Subscription)?
    var finishing: AnyObject?
    lock.withLock {
      if case .over = phase { return }
      if finishRequested { return }
      finishRequested = true
      upstreamToCancel = upstream
      upstream = nil
      // While a call to the downstream is in progress (or before the subscription hand-off),
      // the delivering thread finishes the downstream.
      if deliveries > 0 || phase == .awaitingSubscription { return }
      phase = .over
      finishing = downstreamObject
      downstreamObject = nil
    }
    upstreamToCancel?.cancel()
    if let finishing {
      downstream(finishing).receive(completion: .finished)
    }
  }

  /// Ends a call to the downstream. Returns `true` if the run is over (the downstream was
  /// finished here, because the registry asked for it meanwhile, or completed re-entrantly).
  @discardableResult
  private func deliveryEnded() -> Bool {
    var finishing: AnyObject?
    var upstreamToCancel: (any Subscription)?
    var finishes = false
    let over = lock.withLock { () -> Bool in
      deliveries -= 1
      if case .over = phase { return true }
      guard finishRequested, deliveries == 0 else { return false }
      phase = .over
      finishes = true
      finishing = downstreamObject
      upstreamToCancel = upstream
      downstreamObject = nil
      upstream = nil
      return true
    }
    if finishes {  // for the registry's cancel, which took this run out of its table
      upstreamToCancel?.cancel()
      if let finishing {
        downstream(finishing).receive(completion: .finished)
      }
    }
    return over
  }
}

/// A downstream that is not an object, kept by ``CancellableRun`` in a box.
private final class BoxedDownstream<Downstream> {
  let value: Downstream

  init(_ value: Downstream) {
    self.value = value
  }
}
