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
    if Self._attachesSubscribersToSubject, !introspectionIsActive.load(ordering: .relaxed) {
      // A subject (or map, filter, compactMap of one): its subscription holds the closures
      // itself (one object instead of three; resolved at compile time in specialized code).
      // Not while an `_Introspection` is enabled: it must see a subscriber subscribe.
      return attachSubjectSink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    }
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
    // @unchecked Sendable: `state` is atomic; `subscription` is guarded by `lock`; `handlers`
    // is set to nil only by the one thread that claims the release (`SinkState.released`),
    // when no delivery can be running; `deliveryDepth` and `releasesHandlersAfterDelivery` are
    // touched only by the upstream's serialized calls.
    //
    // Why it is built this way (an atomic state word instead of a status under the lock, the
    // closures retained by hand, `@exclusivity(unchecked)`): every pipeline ends in a sink, so
    // its per-value path is on every benchmark. Docs/Performance.md, "Why the core is fast"
    // ("Sinks take no lock and no reference count per value", and the `e1`/`e2` notes on
    // subscribing), gives the measurements; `Benchmarks/gate.sh` guards them. Its helpers
    // (`SinkHandlers`, `SinkState`, `classBound(_:)`) are in `Subscribers/Internal/`.

    /// The closures, borrowed in place by deliveries (so that calling them does not retain and
    /// release their captures for every value: two atomic operations each time); released
    /// after the completion or a cancel.
    @usableFromInline
    @exclusivity(unchecked)
    var handlers: SinkHandlers<Input, Failure>

    /// How many `receiveValue` calls are running, nested (re-entrant sends), with an upstream
    /// that reports detach (which serializes its calls, so a plain counter does).
    @usableFromInline
    @exclusivity(unchecked)
    var deliveryDepth: Int32 = 0

    /// Whether the closures are released when the running `receiveValue` returns (the
    /// completion, or the upstream's report that it forgot this sink, arrived from inside it).
    @usableFromInline
    @exclusivity(unchecked)
    var releasesHandlersAfterDelivery = false

    /// The subscription, between `receive(subscription:)` and the end. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var subscription: (any AnyObject & Subscription)?

    @usableFromInline
    let lock = Lock()

    /// ``SinkState`` bits: where the sink is in its life, and (with an upstream that does not
    /// report detach) how many deliveries are running. Phase changes are made under `lock`;
    /// the value path reads it without the lock.
    @usableFromInline
    let state = Atomic<UInt32>(0)

    /// The closure called with each value (a no-op after completion).
    public var receiveValue: (Input) -> Void {
      handlers.receiveValue ?? { _ in }
    }

    /// The closure called on completion (a no-op after completion).
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      handlers.receiveCompletion ?? { _ in }
    }

    /// A textual representation of the subscriber: `"Sink"`.
    public var description: String { "Sink" }

    /// Initializes a sink with the provided closures.
    @inlinable
    public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      handlers = .held(receiveValue: receiveValue, receiveCompletion: receiveCompletion)
    }

    /// Stores the subscription and requests unlimited values; cancels any later subscription.
    @inlinable
    public func receive(subscription: any Subscription) {
      accept(subscription, reportsDetach: false)
    }

    /// `receive(subscription:)` from an upstream that calls ``_upstreamDetached()`` once it
    /// has forgotten this sink after a cancel: values are then delivered without atomic
    /// bookkeeping.
    @inlinable
    public func _receive(subscriptionReportingDetach subscription: any Subscription) {
      accept(subscription, reportsDetach: true)
    }

    @inlinable
    func accept(_ subscription: any Subscription, reportsDetach: Bool) {
      let accepted = lock.withLock { () -> Bool in
        let current = state.load(ordering: .relaxed)
        guard current & (SinkState.subscribed | SinkState.terminated) == 0 else { return false }
        self.subscription = classBound(subscription)
        // A store: every other change is made under the lock, or (deliveries) only once this
        // store is visible.
        state.store(
          current | SinkState.subscribed | (reportsDetach ? SinkState.reportsDetach : 0),
          ordering: .releasing)
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
    @inline(__always)
    public func receive(_ value: Input) -> Subscribers.Demand {
      // One comparison on the common path: subscribed, live, with an upstream that reports
      // detach (whose calls are serial, so a plain counter tracks nested deliveries).
      guard state.load(ordering: .acquiring) == SinkState.subscribed | SinkState.reportsDetach,
        handlers.isHeld
      else {
        receiveCounted(value)
        return .none  // Returned here, so that the caller's code knows it (no demand to add).
      }
      deliveryDepth += 1
      // The closures are not released while a delivery runs.
      handlers.receive(value)
      deliveryDepth -= 1
      if deliveryDepth == 0, releasesHandlersAfterDelivery { releaseHandlersAfterDelivery() }
      return .none
    }

    /// `receive(_:)` after a cancel or the completion (nothing is delivered), or with an
    /// upstream that does not report detach: the delivery is then counted in `state`, so that
    /// a `cancel()` from another thread leaves the closures to the last delivery running (two
    /// atomic operations per value).
    @inlinable
    @inline(never)
    func receiveCounted(_ value: Input) {
      let current = state.load(ordering: .acquiring)
      guard current & (SinkState.subscribed | SinkState.terminated) == SinkState.subscribed,
        current & SinkState.reportsDetach == 0
      else { return }
      let before = state.wrappingAdd(SinkState.delivery, ordering: .acquiringAndReleasing)
        .oldValue
      // Not terminated when counted: the closures stay until this delivery ends.
      if before & SinkState.terminated == 0 {
        handlers.receive(value)
      }
      endCountedDelivery()
    }

    /// Ends a counted delivery; the last one to end after a cancel releases the closures.
    @inlinable
    func endCountedDelivery() {
      let after = state.wrappingSubtract(SinkState.delivery, ordering: .acquiringAndReleasing)
        .newValue
      if after & (SinkState.deliveryMask | SinkState.terminated) == SinkState.terminated {
        releaseHandlers()
      }
    }

    /// The completion, or the upstream's report that it forgot this sink, arrived from inside
    /// the delivery that just returned.
    @usableFromInline
    @inline(never)
    func releaseHandlersAfterDelivery() {
      releasesHandlersAfterDelivery = false
      releaseHandlers()
    }

    /// Calls `receiveCompletion` once, then releases both closures.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
      let before = lock.withLock { () -> UInt32 in
        let current = state.load(ordering: .relaxed)
        guard current & SinkState.terminated == 0 else { return current }
        subscription = nil
        if current & SinkState.reportsDetach != 0 {
          // Nothing else changes `state` now: deliveries are serial with this call and count
          // nothing, cancels take the lock, and releases follow termination. Outside a
          // delivery, the release is claimed here, in the same store.
          let claimed = deliveryDepth == 0 ? SinkState.released : 0
          state.store(current | SinkState.terminated | claimed, ordering: .releasing)
          return current | claimed
        }
        // Counted as a delivery, so that a cancel from another thread leaves the closures
        // alone until it returns.
        return state.wrappingAdd(
          SinkState.terminated | SinkState.delivery, ordering: .acquiringAndReleasing
        ).oldValue
      }
      guard before & SinkState.terminated == 0 else { return }
      handlers.receive(completion: completion)
      // Break cycles through the closures (`self.c = p.sink { self.x = $0 }`), but not under
      // a `receiveValue` call that is still running (a completion sent from inside it).
      if before & SinkState.reportsDetach == 0 {
        endCountedDelivery()
      } else if before & SinkState.released != 0 {
        releaseClaimedHandlers()
      } else {
        releasesHandlersAfterDelivery = true
      }
    }

    /// Releases the closures, once: the first caller claims the release in `state`.
    @usableFromInline
    func releaseHandlers() {
      guard
        state.bitwiseOr(SinkState.released, ordering: .acquiringAndReleasing).oldValue
          & SinkState.released == 0
      else { return }
      releaseClaimedHandlers()
    }

    /// Releases the closures, for the caller that claimed the release.
    @inlinable
    func releaseClaimedHandlers() {
      let released = handlers.take()
      _ = consume released  // dropped once `handlers` no longer refers to the closures
    }

    /// The upstream forgot this sink: no delivery runs on another thread and none will start,
    /// so after a cancel the closures can go (when the delivery that cancelled, if any, has
    /// returned).
    @inlinable
    public func _upstreamDetached() {
      guard state.load(ordering: .acquiring) & SinkState.terminated != 0 else { return }
      if deliveryDepth > 0 {
        releasesHandlersAfterDelivery = true
      } else {
        releaseHandlers()
      }
    }

    /// Cancels the subscription. Cancelling twice, or after completion, does nothing.
    ///
    /// Both closures are released (so objects they capture are freed even while the sink
    /// itself is kept), outside any lock, as soon as no value can be being delivered: at once
    /// when no delivery is running, or when the delivery in progress (on another thread, or the
    /// one that called `cancel()`) returns.
    @inlinable
    public func cancel() {
      // Terminated is never cleared: a cancel after the completion returns without the lock.
      guard state.load(ordering: .acquiring) & SinkState.terminated == 0 else { return }
      cancelSubscription()
    }

    @inlinable
    @inline(never)
    func cancelSubscription() {
      let cancelled = lock.withLock {
        () -> (subscription: (any AnyObject & Subscription)?, before: UInt32)? in
        guard state.load(ordering: .relaxed) & SinkState.terminated == 0 else { return nil }
        defer { subscription = nil }
        let before = state.bitwiseOr(SinkState.terminated, ordering: .acquiringAndReleasing)
          .oldValue
        return (subscription, before)
      }
      guard let cancelled else { return }
      let before = cancelled.before
      if before & SinkState.subscribed == 0 {
        releaseHandlers()  // Never subscribed: nothing was ever delivered.
      } else if before & SinkState.reportsDetach == 0 {
        // The last delivery running, if any, releases them when it ends.
        if before & SinkState.deliveryMask == 0 { releaseHandlers() }
      }
      // Otherwise the upstream calls `_upstreamDetached()` once no delivery runs.
      cancelled.subscription?.cancel()
    }
  }
}
