import CombineExCore

/// A cold future: a publisher whose work runs once per subscription, never at construction,
/// and publishes one value (then `.finished`) or a failure.
///
/// Combine's `Future` is eager: its closure runs at once, in `init`, and its one result is
/// shared by every subscriber. A `DeferredFuture` instead runs its closure for each new
/// subscriber, like `Deferred { Future { ... } }`, and says so in its type, so an API that
/// returns one promises "subscribing starts the work":
///
/// ```swift
/// var runs = 0
/// let future = DeferredFuture<Int, Never> { promise in
///   runs += 1
///   promise(.success(runs))
/// }
/// print(runs)  // Prints: 0
/// let first = future.sink { print($0) }  // Prints: 1
/// let second = future.sink { print($0) }  // Prints: 2
/// ```
///
/// Create one from a promise closure (`DeferredFuture { promise in ... }`), from an `async` closure
/// (`DeferredFuture { try await ... }`), or with ``just(_:)`` and ``fail(_:)``. Await it with
/// ``DeferredFutureProtocol/value-dp3b``.
/// Single-value operators (`map`, `tryMap`, `mapError`, `flatMap`, `catch`, `tryCatch`,
/// `replaceError`, `retry`, `delay`, `timeout`, `receive(on:)`, `subscribe(on:)`,
/// `handleEvents`, `zip`, `combineLatest`) return a `DeferredFuture` again, so coldness
/// survives a chain; erase it with ``eraseToAnyDeferredFuture()`` to hide how it was built.
///
/// ## Semantics of one subscription
/// - The work starts when the subscriber has received its subscription (unless it cancelled
///   in `receive(subscription:)`, in which case nothing runs), whether or not it has requested
///   demand yet.
/// - A value waits for demand; it is delivered followed at once by `.finished`. A failure is
///   delivered as soon as it is known.
/// - Only the first call of the promise counts; later calls, from any thread, are ignored.
/// - Cancelling releases the subscriber at once and cancels the work when it can be
///   cancelled (the task of the `async` initializer).
/// - A chain of single-value operators (`map`, `flatMap`, `catch`, ...) on futures made from
///   work runs as one subscription: the operators compose the work. A composed `map` (or
///   `tryMap`, `mapError`, ...) therefore runs its closure when the work reports its result,
///   not when the subscriber asks for the value; the value still waits for demand.
public struct DeferredFuture<Output, Failure: Error>: DeferredFutureProtocol {
  /// The closure a `DeferredFuture`'s work calls with its result: the first call counts, later
  /// ones are ignored. It may be called from any thread.
  public typealias Promise = Future<Output, Failure>.Promise

  /// How the future runs: from work (its start closure, which single-value operators compose
  /// into one subscription), or as a publisher that is cold and sends at most one value (the
  /// operators that need their own subscription: `delay`, `receive(on:)`, `timeout`, ...).
  @usableFromInline
  enum Source {
    /// One piece of work: a promise closure, an `async` closure, `just`, `fail`.
    case work(FutureWork<Output, Failure>)
    /// Work-based futures and single-value operators composed into one subscription.
    case chain(FutureChain<Output, Failure>)
    /// Any other single-result publisher.
    case publisher(AnyPublisher<Output, Failure>)
  }

  /// How the future runs.
  @usableFromInline
  let source: Source

  /// Wraps a publisher that the caller guarantees is cold and sends one value then
  /// `.finished`, or a failure.
  @usableFromInline
  init<P: Publisher>(publisher: P) where P.Output == Output, P.Failure == Failure {
    source = .publisher(publisher.eraseToAnyPublisher())
  }

  /// A future that runs `work` for each subscription.
  @usableFromInline
  init(publisher work: FutureWork<Output, Failure>) {
    source = .work(work)
  }

  /// A future that runs `chain` for each subscription.
  @inlinable
  init(chain: FutureChain<Output, Failure>) {
    source = .chain(chain)
  }

  /// The future as a publisher, type-erased: what the operators that subscribe it build on.
  @usableFromInline
  var publisher: AnyPublisher<Output, Failure> {
    switch source {
    case .work(let work): work.eraseToAnyPublisher()
    case .chain(let chain): chain.eraseToAnyPublisher()
    case .publisher(let publisher): publisher
    }
  }

  /// The future as a chain to compose operators onto, or `nil` if it runs as a publisher.
  @inlinable
  var chain: FutureChain<Output, Failure>? {
    switch source {
    case .work(let work): FutureChain { run, promise in work.run(in: run, promise: promise) }
    case .chain(let chain): chain
    case .publisher: nil
    }
  }

  /// Runs the future as the next stage of a composed future's subscription: its work in
  /// `run`, or, for a future made from a publisher, a subscription of that publisher.
  @inlinable
  func run(in run: FutureRun, promise: @escaping FutureChain<Output, Failure>.Continuation) {
    switch source {
    case .work(let work):
      work.run(in: run, promise: promise)
    case .chain(let chain):
      chain.start(run, promise)
    case .publisher(let publisher):
      let stage = FutureStage(run: run, continuation: promise)
      guard stage.begin() else { return }
      publisher.subscribe(FutureStageSubscriber(stage: stage))
    }
  }

  /// Creates a future whose `attemptToFulfill` closure runs once for each subscription.
  ///
  /// ```swift
  /// let future = DeferredFuture<String, Never> { promise in
  ///   DispatchQueue.global().async { promise(.success("done")) }
  /// }
  /// let cancellable = future.sink { print($0) }  // Prints: done — from the global queue
  /// ```
  ///
  /// - Parameter attemptToFulfill: Receives the subscription's ``Promise``. It may call it
  ///   before returning, or keep it and call it later from any thread. Its work cannot be
  ///   cancelled: once the subscriber cancels, the result is ignored.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    self.init(
      publisher: FutureWork<Output, Failure> { promise in
        attemptToFulfill(promise)
        return nil
      })
  }

  /// Creates a future that runs `work` in a new task for each subscription, and cancels that
  /// task when the subscriber cancels.
  ///
  /// ```swift
  /// @Sendable func fetchScore() async throws -> Int { 7 }
  /// let score = DeferredFuture<Int, any Error> { try await fetchScore() }
  /// let cancellable = score.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 7 — once the subscription's task has run
  /// ```
  ///
  /// The future's `Failure` is the closure's thrown error type: `Never` for a closure that
  /// cannot throw, `any Error` for one that throws; a concrete type needs the closure to say
  /// so (`DeferredFuture<Int, Offline> { () throws(Offline) in ... }`). Inside `work`,
  /// `Task.isCancelled` and `Task.checkCancellation()` see the subscriber's cancel.
  ///
  /// - Parameter work: The work to run per subscription; `@Sendable` because each run has its
  ///   own task.
  public init(_ work: @escaping @Sendable () async throws(Failure) -> Output) {
    self.init(
      publisher: FutureWork<Output, Failure> { promise in
        let task = Task {
          do throws(Failure) {
            promise(.success(try await work()))
          } catch {
            promise(.failure(error))
          }
        }
        return { task.cancel() }
      })
  }

  /// A future that publishes `value` to each subscriber, then finishes.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(3).sink { print($0) }  // Prints: 3
  /// ```
  public static func just(_ value: Output) -> DeferredFuture<Output, Failure> {
    DeferredFuture(
      publisher: FutureWork<Output, Failure> { promise in
        promise(.success(value))
        return nil
      })
  }

  /// A future that fails each subscriber with `error`.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(Offline())
  /// ```
  public static func fail(_ error: Failure) -> DeferredFuture<Output, Failure> {
    DeferredFuture(
      publisher: FutureWork<Output, Failure> { promise in
        promise(.failure(error))
        return nil
      })
  }

  /// Runs the work for this subscriber and delivers its result.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    switch source {
    case .work(let work): work.receive(subscriber: subscriber)
    case .chain(let chain): chain.receive(subscriber: subscriber)
    case .publisher(let publisher): publisher.receive(subscriber: subscriber)
    }
  }

  /// Wraps this future in an ``AnyDeferredFuture``.
  ///
  /// ```swift
  /// let erased: AnyDeferredFuture<Int, Never> = DeferredFuture.just(1).eraseToAnyDeferredFuture()
  /// ```
  public func eraseToAnyDeferredFuture() -> AnyDeferredFuture<Output, Failure> {
    AnyDeferredFuture(wrapping: self)
  }
}
