import CombineExCore

// The original CombineEx's view of a future as its promise closure: `attemptToFulfill`, and
// `createPublisher`, which makes Combine's (eager) `Future` from it.

extension DeferredFutureProtocol {
  /// Runs the future's work once and calls the given promise with its result: the closure the
  /// original CombineEx kept in every future.
  ///
  /// ```swift
  /// let future = DeferredFuture<Int, Never>.just(5)
  /// future.attemptToFulfill { result in print(result) }  // Prints: success(5)
  /// ```
  ///
  /// Each call runs the work again. The run cannot be cancelled through this closure (the
  /// subscription it makes ends with the result); subscribe to the future instead when you
  /// need to cancel. If the work never reports a result, the promise is never called and the
  /// run is freed with the work.
  public var attemptToFulfill: (@escaping Future<Output, Failure>.Promise) -> Void {
    let publisher = erasedPublisher
    return { promise in publisher.subscribe(PromiseSubscriber(promise)) }
  }
}

extension DeferredFuture {
  /// The type of Combine's eager future that ``createPublisher`` makes, as the original
  /// CombineEx names it.
  public typealias WrappedFuture = Future<Output, Failure>

  /// A closure that makes a Combine `Future` from this future's work: calling it runs the work
  /// at once (a `Future` is eager), and the `Future` shares the one result with all of its
  /// subscribers.
  ///
  /// ```swift
  /// var runs = 0
  /// let future = DeferredFuture<Int, Never> { promise in
  ///   runs += 1
  ///   promise(.success(runs))
  /// }
  /// let eager = future.createPublisher()
  /// print(runs)  // Prints: 1
  /// let a = eager.sink { print($0) }  // Prints: 1
  /// let b = eager.sink { print($0) }  // Prints: 1
  /// ```
  public var createPublisher: () -> Future<Output, Failure> {
    let attempt = attemptToFulfill
    return { Future(attempt) }
  }
}

extension AnyDeferredFuture {
  /// The future type that an `AnyDeferredFuture` wraps, as the original CombineEx names it.
  public typealias WrappedDeferredFuture = DeferredFuture<Output, Failure>

  /// The type of Combine's eager future, as the original CombineEx names it.
  public typealias WrappedFuture = Future<Output, Failure>

  /// Creates a future whose `attemptToFulfill` closure runs once for each subscription: the
  /// original CombineEx's labelled spelling of `init(_:)`.
  ///
  /// ```swift
  /// let erased = AnyDeferredFuture<Int, Never>(attemptToFulfill: { promise in
  ///   promise(.success(1))
  /// })
  /// ```
  ///
  /// Disfavored, so that a trailing closure picks the unlabelled initializer; both do the same.
  @_disfavoredOverload
  public init(
    attemptToFulfill: @escaping (@escaping DeferredFuture<Output, Failure>.Promise) -> Void
  ) {
    self.init(wrapping: DeferredFuture(attemptToFulfill))
  }
}

/// Calls a promise with the result of the future it subscribes to.
///
/// It keeps no reference to its subscription: the subscription (held by the running work)
/// holds it, so a run whose work never reports a result is freed with the work instead of
/// keeping itself alive.
private struct PromiseSubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
  let promise: Future<Input, Failure>.Promise
  let combineIdentifier = CombineIdentifier()

  init(_ promise: @escaping Future<Input, Failure>.Promise) {
    self.promise = promise
  }

  var description: String { "attemptToFulfill" }

  func receive(subscription: any Subscription) {
    subscription.request(.max(1))
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    promise(.success(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    if case .failure(let error) = completion { promise(.failure(error)) }
  }
}
