/// The subscription of the publishers that deliver one result, known now or later, from any
/// thread: the core's ``Future`` and CombineEx's `DeferredFuture` (its `FutureWork`).
///
/// It delivers when it has both the result and, for a value, demand, and only after
/// `receive(subscription:)` has returned (``start()``, or ``finishStartingWork(cancellingWith:)``
/// once the work of a `DeferredFuture` is running), so that a result reported on another
/// thread never reaches the subscriber before its subscription does. A value is followed at
/// once by `.finished`; a failure needs no demand.
///
/// The class is not generic, for the reason ``SingleValueSubscription`` gives: a generic
/// class's deinitializer is never specialized, and destroying its `Optional<Downstream>` and
/// `Optional<Result<...>>` fields looked up their metadata in the runtime's cache on every
/// subscription. The subscriber lives in the context of the `delivery` closure, created in the
/// publisher's `receive(subscriber:)` (specialized where that is `@inlinable`), and the result
/// waits in a ``ResultSlot``, written and read by typed `@inlinable` code (the publisher's,
/// and that closure).
@usableFromInline
package final class SingleResultSubscription: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked Sendable: every mutable property is guarded by `lock`, but `delivery` and
  // `result` from the moment `phase` becomes `delivering`, when only the delivering thread
  // touches them (a cancel or the mirror then leaves them alone). Hence no runtime exclusivity
  // checks (`@exclusivity(unchecked)`): they cost about 1,800 instructions per subscription.

  /// Which publisher the subscription serves: what it is called, and what it does with a
  /// request for zero values and with a cancel.
  @usableFromInline
  package enum Kind: Sendable {
    /// A ``Future``'s: a request for zero values is a misuse, as in Combine; a cancel forgets
    /// the subscription in the future's list of waiting subscriptions.
    case future
    /// A `DeferredFuture`'s: a request for zero values is ignored; a cancel cancels the
    /// running work.
    case work
  }

  /// What a call of `delivery` does.
  @usableFromInline
  package enum Action {
    /// Sends the result (in `result`): a value then `.finished` unless the subscriber
    /// cancelled meanwhile, or a failure.
    case deliver
    /// Returns the subscriber, for the mirror; delivers nothing.
    case reflect
  }

  /// The closure that delivers to the subscriber (see ``Action``), in a struct: stored bare in
  /// an optional, a closure is re-abstracted, which allocated a thunk at every call.
  @usableFromInline
  struct Delivery {
    @usableFromInline
    let run: (SingleResultSubscription, Action) -> Any?

    @inlinable
    init(_ run: @escaping (SingleResultSubscription, Action) -> Any?) {
      self.run = run
    }
  }

  @usableFromInline
  enum Phase {
    /// The publisher is still inside `receive(subscriber:)` (or starting the work): nothing may
    /// be delivered yet.
    case starting
    /// Subscribed: deliver as soon as the result (and, for a value, demand) is there.
    case live
    /// Sending the result: a cancel now only moves to `done`, which keeps `.finished` from
    /// being sent after it (rule 2, even for a cancel made inside `receive(_:)`).
    case delivering
    /// Delivered or cancelled.
    case done
  }

  @usableFromInline
  let kind: Kind
  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var phase = Phase.starting
  @usableFromInline
  @exclusivity(unchecked)
  var hasDemand = false
  /// Whether the result was delivered on a request (it had arrived before): as Combine's, a
  /// future's mirror then still shows the future once done.
  @usableFromInline
  @exclusivity(unchecked)
  var deliveredOnRequest = false
  /// The result (a `Result<Output, Failure>`), from its arrival until its delivery.
  @usableFromInline
  @exclusivity(unchecked)
  var result = ResultSlot()
  /// Sends the result to the subscriber, or shows it (see ``Action``); `nil` once the
  /// subscriber is let go of (delivered or cancelled).
  @usableFromInline
  @exclusivity(unchecked)
  var delivery: Delivery?
  /// The future whose result this subscription waits for, while its `receive(subscriber:)`
  /// runs (``start()``, and a delivery made there, included), which keeps it alive: read only
  /// under `lock` in that time, and `nil` after it. Unowned: a weak reference allocates the
  /// future's side table and makes each of its retains and releases take the slow path, and
  /// a subscription delivered at once (the result was known, the subscriber asked for it in
  /// `receive(subscription:)`) never needs more.
  @usableFromInline
  @exclusivity(unchecked)
  unowned(unsafe) var startingOrigin: (any SingleResultOrigin)?
  /// The future, after ``start()``, for a subscription that still waits (for the result, or for
  /// demand): held weakly, so that a subscription keeps no future alive, and showing it in the
  /// mirror keeps nothing alive either.
  @usableFromInline
  @exclusivity(unchecked)
  weak var laterOrigin: (any SingleResultOrigin)?
  /// Cancels the running work of a `DeferredFuture`, until the result is delivered.
  @usableFromInline
  @exclusivity(unchecked)
  var cancelWork: (@Sendable () -> Void)?

  /// Creates the subscription for `downstream`; the result goes to it through `delivery`.
  /// `origin` must stay alive until ``start()`` has returned (it is the future calling this
  /// from its `receive(subscriber:)`).
  @inlinable
  package init<Downstream: Subscriber>(
    kind: Kind, origin: (any SingleResultOrigin)?, downstream: Downstream
  ) {
    self.kind = kind
    self.startingOrigin = origin
    self.delivery = Delivery { subscription, action in
      switch action {
      case .reflect:
        return downstream
      case .deliver:
        // Always the type the publisher stored: its `Output` and `Failure` are the
        // subscriber's.
        switch subscription.result.take(Result<Downstream.Input, Downstream.Failure>.self) {
        case .success(let value):
          _ = downstream.receive(value)
          // Still `delivering` unless the subscriber cancelled meanwhile.
          if subscription.isStillDelivering() { downstream.receive(completion: .finished) }
        case .failure(let error):
          downstream.receive(completion: .failure(error))
        }
        return nil
      }
    }
  }

  deinit {
    // A result that arrived but was never delivered (the subscriber let go of the
    // subscription without cancelling it).
    result.clear()
  }

  /// The future, under `lock`: see ``startingOrigin`` and ``laterOrigin``.
  @usableFromInline
  var origin: (any SingleResultOrigin)? {
    startingOrigin ?? laterOrigin
  }

  /// Under `lock`, at the end of the starting phase, unless a delivery runs now: the future is
  /// held weakly from now on, if it may still be needed (for the mirror, or to be told of a
  /// cancel).
  @usableFromInline
  func endStartingOrigin() {
    if let startingOrigin, phase != .done { laterOrigin = startingOrigin }
    startingOrigin = nil
  }
  @usableFromInline
  package var description: String {
    switch kind {
    case .future: "Future"
    case .work: "DeferredFuture"
    }
  }

  /// Keeps a result known before the subscription is shared with anyone (no lock: no other
  /// thread can see it yet).
  @inlinable
  package func preset<Output, Failure: Error>(_ result: Result<Output, Failure>) {
    self.result.store(result)
  }

  /// Keeps a result known before the subscription is shared with anyone (no lock: no other
  /// thread can see it yet). `result` is a `Result<Output, Failure>` boxed.
  @usableFromInline
  package func preset(_ result: Any, isFailure: Bool) {
    self.result.store(boxed: result, isFailure: isFailure)
  }

  /// Receives the result; only the first call counts.
  @inlinable
  package func fulfill<Output, Failure: Error>(_ result: Result<Output, Failure>) {
    let ready = lock.withLock { () -> Bool in
      guard phase == .starting || phase == .live, self.result.isEmpty else { return false }
      self.result.store(result)
      return takeDeliveryIfReady()
    }
    if ready { deliver() }
  }

  /// Receives the result (a `Result<Output, Failure>` boxed); only the first call counts.
  @usableFromInline
  package func fulfill(boxed result: Any, isFailure: Bool) {
    let ready = lock.withLock { () -> Bool in
      guard phase == .starting || phase == .live, self.result.isEmpty else { return false }
      self.result.store(boxed: result, isFailure: isFailure)
      return takeDeliveryIfReady()
    }
    if ready { deliver() }
  }

  /// Ends the starting phase: delivers if the result (and demand) arrived meanwhile.
  @usableFromInline
  package func start() {
    let ready = lock.withLock { () -> Bool in
      guard phase == .starting else {
        startingOrigin = nil
        return false
      }
      phase = .live
      // A delivery now runs inside the future's `receive(subscriber:)`: `startingOrigin`
      // stays valid through it.
      if takeDeliveryIfReady() { return true }
      endStartingOrigin()
      return false
    }
    if ready { deliver() }
  }

  /// Whether the work may still be started: `false` once the subscriber cancelled.
  package var mayStartWork: Bool {
    lock.withLock { phase == .starting }
  }

  /// Ends the starting phase once the work runs, keeping how to cancel it; cancels it at once if
  /// the subscriber cancelled meanwhile (from another thread). Then delivers if the result (and
  /// demand) arrived meanwhile.
  package func finishStartingWork(cancellingWith cancelWork: (@Sendable () -> Void)?) {
    let (ready, cancelNow) = lock.withLock { () -> (Bool, (@Sendable () -> Void)?) in
      guard phase == .starting else {
        startingOrigin = nil
        return (false, cancelWork)
      }
      phase = .live
      self.cancelWork = cancelWork
      if takeDeliveryIfReady() { return (true, nil) }
      endStartingOrigin()
      return (false, nil)
    }
    cancelNow?()
    if ready { deliver() }
  }

  @usableFromInline
  package func request(_ demand: Subscribers.Demand) {
    switch kind {
    case .future:
      // As in Combine, whose Future checks it.
      checkAPI(
        demand != .none, "Future was asked for zero values. A request must be for one or more.")
    case .work:
      guard demand > .none else { return }
    }
    let ready = lock.withLock { () -> Bool in
      guard phase != .done else { return false }
      hasDemand = true
      let ready = takeDeliveryIfReady()
      if ready { deliveredOnRequest = true }
      return ready
    }
    if ready { deliver() }
  }

  @usableFromInline
  package func cancel() {
    let ending = lock.withLock { () -> Ending? in
      guard phase != .done else { return nil }
      if phase == .delivering {
        // The delivering thread owns the rest; it sees `done` and sends no completion.
        phase = .done
        return nil
      }
      phase = .done
      defer {
        delivery = nil
        cancelWork = nil
        startingOrigin = nil
      }
      return Ending(
        origin: kind == .future ? origin : nil, delivery: delivery, cancelWork: cancelWork)
    }
    guard let ending else { return }
    // The result and the subscriber are released here, outside the lock; from `done` on, no
    // other thread touches the result.
    result.clear()
    ending.origin?.forget(self)
    ending.cancelWork?()
  }

  /// What a cancel lets go of, outside the lock.
  @usableFromInline
  struct Ending {
    let origin: (any SingleResultOrigin)?
    let delivery: Delivery?
    let cancelWork: (@Sendable () -> Void)?
  }

  /// Under `lock`: if everything needed to deliver is there, moves to `delivering` and returns
  /// `true`: the calling thread then owns `delivery` and `result`, and must call ``deliver()``.
  @usableFromInline
  func takeDeliveryIfReady() -> Bool {
    guard phase == .live, !result.isEmpty, delivery != nil else { return false }
    if !hasDemand, !result.isFailure { return false }
    phase = .delivering
    cancelWork = nil
    return true
  }

  /// Sends the result, then lets go of the subscriber. Only the thread that moved to
  /// `delivering` calls it.
  @usableFromInline
  func deliver() {
    _ = delivery.unsafelyUnwrapped.run(self, .deliver)
    // `delivering` until the completion was received (a cancel meanwhile only ends it early):
    // the mirror shows the future to the subscriber receiving it, as Combine's does.
    lock.withLock {
      phase = .done
      startingOrigin = nil
    }
    // Released outside the lock; from `done` on, no other thread reads it.
    delivery = nil
  }

  /// Called by `delivery` after the value: whether to send `.finished` (no cancel meanwhile).
  @usableFromInline
  func isStillDelivering() -> Bool {
    lock.withLock { phase == .delivering }
  }

  // As in Combine: the future (as `parent` and `subject`), the downstream and whether it asked
  // for anything; all `nil` once the subscription ended, but for the future after a result
  // delivered on a request.
  @usableFromInline
  package var customMirror: Mirror {
    let (origin, delivery, hasDemand) = lock.withLock {
      (
        phase == .done && !deliveredOnRequest ? nil : self.origin,
        // Not while delivering: the delivering thread owns it, and it is as good as gone.
        phase == .starting || phase == .live ? self.delivery : nil, self.hasDemand
      )
    }
    let downstream = delivery?.run(self, .reflect)
    switch kind {
    case .future:
      return Mirror(
        self,
        children: [
          "parent": origin as Any, "downstream": downstream as Any,
          "hasAnyDemand": hasDemand, "subject": origin as Any,
        ])
    case .work:
      return Mirror(self, children: ["downstream": downstream as Any, "hasAnyDemand": hasDemand])
    }
  }

  @usableFromInline
  package var playgroundDescription: Any { description }
}

/// A publisher that a ``SingleResultSubscription`` waits on, told when a waiting subscription
/// is cancelled.
@usableFromInline
package protocol SingleResultOrigin: AnyObject, Sendable {
  /// Forgets a cancelled subscription that was waiting for the result.
  func forget(_ subscription: SingleResultSubscription)
}
