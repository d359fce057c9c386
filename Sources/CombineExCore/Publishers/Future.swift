/// A publisher that eventually produces a single value and then finishes or fails.
///
/// Like Combine's, this future is *eager*: `attemptToFulfill` runs at once, inside `init`,
/// whether or not anyone subscribes, and only once however many subscribe. The first call of
/// the promise fixes the result; every subscriber, including one that subscribes long after,
/// receives that result:
/// - a value is delivered once the subscriber has requested demand, followed at once by
///   `.finished`;
/// - a failure is delivered as soon as it is known (a completion needs no demand).
///
/// ```swift
/// let future = Future<Int, Never> { promise in
///   print("working")
///   promise(.success(42))
/// }
/// // Prints: working
/// let first = future.sink { print($0) }  // Prints: 42
/// let second = future.sink { print($0) }  // Prints: 42 — the work does not run again
/// ```
///
/// To run the work once per subscription instead, wrap the future in ``Deferred``
/// (`Deferred { Future { ... } }`); CombineEx's `DeferredFuture` packages that pattern.
///
/// ## Threading
/// The promise may be called from any thread, several times and concurrently: only the first
/// call counts, later ones are ignored. Subscribing, requesting and cancelling are thread-safe
/// too. Unlike Combine's, ``Promise`` is `@Sendable`, so that it can be handed to other threads
/// and tasks under Swift 6's strict concurrency checking.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked Sendable: `result` and `waiting` are guarded by `lock`.
  /// A type that represents a closure to invoke in the future, when an element or error is
  /// available: the first call fulfills the future, later calls are ignored.
  public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

  private let lock = Lock()
  /// The result, once the promise has been called.
  private var result: Result<Output, Failure>?
  /// Subscriptions made before the result was known, in subscription order.
  private var waiting: [FutureWaiter<Output, Failure>] = []

  /// Creates a publisher that invokes a promise closure when the publisher emits an element.
  ///
  /// - Parameter attemptToFulfill: A closure, run immediately, that receives the
  ///   ``Promise``. It may call the promise before returning or keep it and call it later,
  ///   from any thread.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in fulfill(result) }
  }

  /// Attaches the subscriber, which receives the result as described above.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let subscription = FutureSubscription(future: self, downstream: subscriber)
    let known = lock.withLock { () -> Result<Output, Failure>? in
      if let result { return result }
      waiting.append(subscription)
      return nil
    }
    if let known { subscription.fulfill(known) }
    subscriber.receive(subscription: subscription)
    subscription.start()
  }

  /// The promise: records the first result and hands it to every waiting subscription.
  private func fulfill(_ result: Result<Output, Failure>) {
    let waiters = lock.withLock { () -> [FutureWaiter<Output, Failure>] in
      guard self.result == nil else { return [] }
      self.result = result
      defer { waiting = [] }
      return waiting
    }
    for waiter in waiters {
      waiter.fulfill(result)
    }
  }

  /// Forgets a cancelled subscription that was waiting for the result.
  fileprivate func remove(_ waiter: FutureWaiter<Output, Failure>) {
    let removed = lock.withLock { () -> FutureWaiter<Output, Failure>? in
      guard let index = waiting.firstIndex(where: { $0 === waiter }) else { return nil }
      return waiting.remove(at: index)
    }
    _ = removed  // Released outside the lock.
  }
}

/// A subscription waiting for a ``Future``'s result, seen without its subscriber's type.
private class FutureWaiter<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: stateless; the subclass guards its state with a lock.
  /// Receives the future's result (at most once is meaningful; later calls are ignored).
  func fulfill(_ result: Result<Output, Failure>) {}
}

/// The subscription a ``Future`` hands to one subscriber.
///
/// It delivers when it has both the result and, for a value, demand, and only after
/// `receive(subscription:)` has returned (``start()``), so that a promise fulfilled on another
/// thread never reaches the subscriber before its subscription does.
private final class FutureSubscription<Downstream: Subscriber>: FutureWaiter<
  Downstream.Input, Downstream.Failure
>, Subscription, CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `phase`, `hasDemand`, `result` and `downstream` are guarded by `lock`.
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  private enum Phase {
    /// The future is still inside `receive(subscriber:)`: nothing may be delivered yet.
    case starting
    /// Subscribed: deliver as soon as the result (and, for a value, demand) is there.
    case live
    /// Sending the result: a cancel now only moves to `done`, which keeps `.finished` from
    /// being sent after it (rule 2, even for a cancel made inside `receive(_:)`).
    case delivering
    /// Delivered or cancelled.
    case done
  }

  private let lock = Lock()
  private var phase = Phase.starting
  private var hasDemand = false
  /// Whether the result was delivered on a request (the promise had been called before): as
  /// Combine's, the mirror then still shows the future once done. (The subscription holds the
  /// future weakly, so showing it keeps nothing alive.)
  private var deliveredOnRequest = false
  private var result: Result<Output, Failure>?
  private var downstream: Downstream?
  private weak var future: Future<Output, Failure>?

  init(future: Future<Output, Failure>, downstream: Downstream) {
    self.future = future
    self.downstream = downstream
  }

  var description: String { "Future" }

  override func fulfill(_ result: Result<Output, Failure>) {
    let delivery = lock.withLock { () -> (Downstream, Result<Output, Failure>)? in
      guard phase == .starting || phase == .live, self.result == nil else { return nil }
      self.result = result
      return takeDeliveryIfReady()
    }
    deliver(delivery)
  }

  /// Ends the starting phase: delivers if the result (and demand) arrived meanwhile.
  func start() {
    let delivery = lock.withLock { () -> (Downstream, Result<Output, Failure>)? in
      guard phase == .starting else { return nil }
      phase = .live
      return takeDeliveryIfReady()
    }
    deliver(delivery)
  }

  func request(_ demand: Subscribers.Demand) {
    // As in Combine, whose Future checks it.
    checkAPI(
      demand != .none, "Future was asked for zero values. A request must be for one or more.")
    let delivery = lock.withLock { () -> (Downstream, Result<Output, Failure>)? in
      guard phase != .done else { return nil }
      hasDemand = true
      let delivery = takeDeliveryIfReady()
      if delivery != nil { deliveredOnRequest = true }
      return delivery
    }
    deliver(delivery)
  }

  func cancel() {
    let (future, released) = lock.withLock {
      () -> (Future<Output, Failure>?, Downstream?) in
      guard phase != .done else { return (nil, nil) }
      if phase == .delivering {
        // The delivering thread owns the rest; it sees `done` and sends no completion.
        phase = .done
        return (nil, nil)
      }
      phase = .done
      result = nil
      defer { downstream = nil }
      return (self.future, downstream)
    }
    _ = released  // Released outside the lock.
    future?.remove(self)
  }

  /// Under `lock`: if everything needed to deliver is there, ends the subscription and returns
  /// what to deliver.
  private func takeDeliveryIfReady() -> (Downstream, Result<Output, Failure>)? {
    guard phase == .live, let result, let downstream else { return nil }
    if case .success = result, !hasDemand { return nil }
    phase = .delivering
    self.result = nil
    self.downstream = nil
    return (downstream, result)
  }

  private func deliver(_ delivery: (Downstream, Result<Output, Failure>)?) {
    guard let (downstream, result) = delivery else { return }
    switch result {
    case .success(let value):
      _ = downstream.receive(value)
      // Still `delivering` unless the subscriber cancelled meanwhile.
      let finish = lock.withLock { phase == .delivering }
      if finish { downstream.receive(completion: .finished) }
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
    // `delivering` until the completion was received (a cancel meanwhile only ends it early):
    // the mirror shows the future to the subscriber receiving it, as Combine's does.
    lock.withLock { phase = .done }
  }
}

// As in Combine: the future (as `parent` and `subject`), the downstream and whether it asked
// for anything; all `nil` once the subscription ended, but for the future after a result
// delivered on a request.
extension FutureSubscription: CustomReflectable, CustomPlaygroundDisplayConvertible {
  var customMirror: Mirror {
    let (future, downstream, hasDemand) = lock.withLock {
      (
        phase == .done && !deliveredOnRequest ? nil : self.future, self.downstream,
        self.hasDemand
      )
    }
    return Mirror(
      self,
      children: [
        "parent": future as Any, "downstream": downstream as Any,
        "hasAnyDemand": hasDemand, "subject": future as Any,
      ])
  }

  var playgroundDescription: Any { description }
}
