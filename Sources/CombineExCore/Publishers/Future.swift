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
public final class Future<Output, Failure: Error>: Publisher, SingleResultOrigin,
  @unchecked Sendable
{
  // @unchecked Sendable: `result` and `waiting` are guarded by `lock` (so they need no runtime
  // exclusivity checks: `@exclusivity(unchecked)`).
  /// A type that represents a closure to invoke in the future, when an element or error is
  /// available: the first call fulfills the future, later calls are ignored.
  public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

  // The stored properties are not generic, so that destroying a future needs no generic
  // metadata (a generic class's deinitializer is never specialized).
  @usableFromInline
  let lock = Lock()
  /// The result (a `Result<Output, Failure>`), once the promise has been called.
  @usableFromInline
  @exclusivity(unchecked)
  var result = ResultSlot()
  /// Subscriptions made before the result was known, in subscription order.
  @usableFromInline
  @exclusivity(unchecked)
  var waiting: [SingleResultSubscription] = []

  /// Creates a publisher that invokes a promise closure when the publisher emits an element.
  ///
  /// - Parameter attemptToFulfill: A closure, run immediately, that receives the
  ///   ``Promise``. It may call the promise before returning or keep it and call it later,
  ///   from any thread.
  @inlinable
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in fulfill(result) }
  }

  /// Attaches the subscriber, which receives the result as described above.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let subscription = SingleResultSubscription(kind: .future, origin: self, downstream: subscriber)
    lock.withLock {
      // Copied into a subscription not shared yet: the subscriber has not seen it, and the
      // future does not list it.
      if !result.isEmpty {
        subscription.preset(result.copy(Result<Output, Failure>.self))
      } else {
        waiting.append(subscription)
      }
    }
    subscriber.receive(subscription: subscription)
    subscription.start()
  }

  /// The promise: records the first result and hands it to every waiting subscription.
  @inlinable
  func fulfill(_ result: Result<Output, Failure>) {
    let waiters = lock.withLock { () -> [SingleResultSubscription] in
      guard self.result.isEmpty else { return [] }
      self.result.store(result)
      guard !waiting.isEmpty else { return [] }
      defer { waiting = [] }
      return waiting
    }
    for waiter in waiters {
      waiter.fulfill(result)
    }
  }

  deinit {
    result.clear()
  }

  /// Forgets a cancelled subscription that was waiting for the result.
  @usableFromInline
  package func forget(_ subscription: SingleResultSubscription) {
    let removed = lock.withLock { () -> SingleResultSubscription? in
      guard let index = waiting.firstIndex(where: { $0 === subscription }) else { return nil }
      return waiting.remove(at: index)
    }
    _ = removed  // Released outside the lock.
  }
}
