import CombineExCore

/// A type-erased cold future: what an API returns to promise "each subscription runs the work
/// once and publishes one result", without saying how the work is built.
///
/// ```swift
/// struct Profile { let name: String }
/// protocol ProfileService {
///   func profile(id: Int) -> AnyDeferredFuture<Profile, any Error>
/// }
/// struct LocalProfiles: ProfileService {
///   func profile(id: Int) -> AnyDeferredFuture<Profile, any Error> {
///     DeferredFuture<Profile, any Error> { Profile(name: "user \(id)") }
///       .eraseToAnyDeferredFuture()
///   }
/// }
/// let cancellable = LocalProfiles().profile(id: 1)
///   .map(\.name)
///   .sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
/// // Prints: user 1 — once the task has run
/// ```
///
/// It behaves exactly like the ``DeferredFuture`` it wraps (see there), and has the same
/// single-value operators, which return a ``DeferredFuture``.
public struct AnyDeferredFuture<Output, Failure: Error>: DeferredFutureProtocol {
  /// The wrapped future.
  @usableFromInline
  let future: DeferredFuture<Output, Failure>

  init(wrapping future: DeferredFuture<Output, Failure>) {
    self.future = future
  }

  /// Erases `future`; erasing an `AnyDeferredFuture` again reuses it.
  ///
  /// ```swift
  /// let erased = AnyDeferredFuture(DeferredFuture<Int, Never>.just(1))
  /// ```
  public init<F: DeferredFutureProtocol>(_ future: F)
  where F.Output == Output, F.Failure == Failure {
    self = future.eraseToAnyDeferredFuture()
  }

  /// Creates a future whose `attemptToFulfill` closure runs once for each subscription: the
  /// same as `DeferredFuture { promise in ... }`, erased.
  public init(
    _ attemptToFulfill: @escaping (@escaping DeferredFuture<Output, Failure>.Promise) -> Void
  ) {
    self.init(wrapping: DeferredFuture(attemptToFulfill))
  }

  /// Creates a future that runs `work` in a new task for each subscription, cancelled with
  /// the subscription: the same as `DeferredFuture { try await ... }`, erased.
  public init(_ work: @escaping @Sendable () async throws(Failure) -> Output) {
    self.init(wrapping: DeferredFuture(work))
  }

  /// A future that publishes `value` to each subscriber, then finishes.
  ///
  /// ```swift
  /// let cancellable = AnyDeferredFuture<Int, Never>.just(3).sink { print($0) }  // Prints: 3
  /// ```
  public static func just(_ value: Output) -> AnyDeferredFuture<Output, Failure> {
    AnyDeferredFuture(wrapping: .just(value))
  }

  /// A future that fails each subscriber with `error`.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = AnyDeferredFuture<Int, Offline>.fail(Offline())
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(Offline())
  /// ```
  public static func fail(_ error: Failure) -> AnyDeferredFuture<Output, Failure> {
    AnyDeferredFuture(wrapping: .fail(error))
  }

  /// Runs the wrapped future's work for this subscriber and delivers its result.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    future.receive(subscriber: subscriber)
  }

  /// Returns this future itself: it is already erased.
  public func eraseToAnyDeferredFuture() -> AnyDeferredFuture<Output, Failure> {
    self
  }
}
