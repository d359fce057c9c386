import CombineExCore

// Single-value transforming operators. Each returns a `DeferredFuture` whose subscription
// subscribes this future once, so the work still runs once per subscription.

extension DeferredFutureProtocol {
  /// Transforms the future's value with a closure, keeping the result a cold future.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(20)
  ///   .map { $0 + 1 }
  ///   .sink { print($0) }
  /// // Prints: 21
  /// ```
  ///
  /// - Parameter transform: Applied to the value; the failure passes through unchanged.
  public func map<T>(_ transform: @escaping (Output) -> T) -> DeferredFuture<T, Failure> {
    DeferredFuture(publisher: erasedPublisher.map(transform))
  }

  /// Publishes the value of a key path of the future's value.
  ///
  /// ```swift
  /// struct User { let name: String }
  /// let cancellable = DeferredFuture<User, Never>.just(User(name: "Ada"))
  ///   .map(\.name)
  ///   .sink { print($0) }
  /// // Prints: Ada
  /// ```
  public func map<T>(_ keyPath: KeyPath<Output, T>) -> DeferredFuture<T, Failure> {
    DeferredFuture<T, Failure>(publisher: erasedPublisher.map(keyPath))
  }

  /// Publishes the values of two key paths of the future's value, as a tuple.
  ///
  /// ```swift
  /// struct User { let name: String; let age: Int }
  /// let cancellable = DeferredFuture<User, Never>.just(User(name: "Ada", age: 36))
  ///   .map(\.name, \.age)
  ///   .sink { print($0) }
  /// // Prints: ("Ada", 36)
  /// ```
  public func map<T0, T1>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
  ) -> DeferredFuture<(T0, T1), Failure> {
    DeferredFuture<(T0, T1), Failure>(publisher: erasedPublisher.map(keyPath0, keyPath1))
  }

  /// Publishes the values of three key paths of the future's value, as a tuple.
  ///
  /// ```swift
  /// struct User { let name: String; let age: Int; let admin: Bool }
  /// let cancellable = DeferredFuture<User, Never>.just(User(name: "Ada", age: 36, admin: true))
  ///   .map(\.name, \.age, \.admin)
  ///   .sink { print($0) }
  /// // Prints: ("Ada", 36, true)
  /// ```
  public func map<T0, T1, T2>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>,
    _ keyPath2: KeyPath<Output, T2>
  ) -> DeferredFuture<(T0, T1, T2), Failure> {
    DeferredFuture<(T0, T1, T2), Failure>(
      publisher: erasedPublisher.map(keyPath0, keyPath1, keyPath2))
  }

  /// Transforms the future's value with a closure that may throw; a thrown error fails the
  /// future.
  ///
  /// ```swift
  /// struct NotANumber: Error {}
  /// let cancellable = DeferredFuture<String, Never>.just("x")
  ///   .tryMap { text -> Int in
  ///     guard let number = Int(text) else { throw NotANumber() }
  ///     return number
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(NotANumber())
  /// ```
  public func tryMap<T>(
    _ transform: @escaping (Output) throws -> T
  ) -> DeferredFuture<T, any Error> {
    DeferredFuture<T, any Error>(publisher: erasedPublisher.tryMap(transform))
  }

  /// Converts the future's failure into another error.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// enum AppError: Error { case network }
  /// let cancellable = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .mapError { _ in AppError.network }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(AppError.network)
  /// ```
  public func mapError<E: Error>(
    _ transform: @escaping (Failure) -> E
  ) -> DeferredFuture<Output, E> {
    DeferredFuture<Output, E>(publisher: erasedPublisher.mapError(transform))
  }

  /// Replaces a `nil` value with `output`.
  ///
  /// ```swift
  /// let nickname = DeferredFuture<String?, Never>.just(nil)
  ///   .replaceNil(with: "anonymous")
  ///   .sink { print($0) }
  /// // Prints: anonymous
  /// ```
  public func replaceNil<NewOutput>(
    with output: NewOutput
  ) -> DeferredFuture<NewOutput, Failure> where Output == NewOutput? {
    map { $0 ?? output }
  }

  /// Changes the failure type of a future that cannot fail, so that it can be combined with
  /// futures that can.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let typed: DeferredFuture<Int, Offline> = DeferredFuture<Int, Never>.just(1)
  ///   .setFailureType(to: Offline.self)
  /// ```
  public func setFailureType<E: Error>(
    to failureType: E.Type
  ) -> DeferredFuture<Output, E> where Failure == Never {
    DeferredFuture<Output, E>(publisher: erasedPublisher.setFailureType(to: failureType))
  }

  /// Chains another future: when this one produces its value, `transform` makes the next
  /// future, whose result becomes the result.
  ///
  /// ```swift
  /// func user(id: Int) -> DeferredFuture<String, Never> { .just("user \(id)") }
  /// let cancellable = DeferredFuture<Int, Never>.just(7)
  ///   .flatMap { user(id: $0) }
  ///   .sink { print($0) }
  /// // Prints: user 7
  /// ```
  ///
  /// The next future is subscribed once per subscription of the chain, after this one's value
  /// arrives; a failure of either fails the chain, and cancelling cancels whichever runs.
  public func flatMap<F: DeferredFutureProtocol>(
    _ transform: @escaping (Output) -> F
  ) -> DeferredFuture<F.Output, Failure> where F.Failure == Failure {
    DeferredFuture<F.Output, Failure>(
      publisher: erasedPublisher.flatMap(maxPublishers: .max(1), transform))
  }

  /// Chains a future that cannot fail after this one.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = DeferredFuture<Int, Offline>.just(2)
  ///   .flatMap { DeferredFuture<Int, Never>.just($0 * 10) }
  ///   .sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 20
  /// ```
  public func flatMap<F: DeferredFutureProtocol>(
    _ transform: @escaping (Output) -> F
  ) -> DeferredFuture<F.Output, Failure> where F.Failure == Never {
    DeferredFuture<F.Output, Failure>(
      publisher: erasedPublisher.flatMap(maxPublishers: .max(1)) {
        transform($0).setFailureType(to: Failure.self)
      })
  }

  /// Chains a future that can fail after this one, which cannot.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = DeferredFuture<Int, Never>.just(2)
  ///   .flatMap { _ in DeferredFuture<Int, Offline>.fail(Offline()) }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(Offline())
  /// ```
  public func flatMap<F: DeferredFutureProtocol>(
    _ transform: @escaping (Output) -> F
  ) -> DeferredFuture<F.Output, F.Failure> where Failure == Never {
    DeferredFuture<F.Output, F.Failure>(
      publisher: erasedPublisher.setFailureType(to: F.Failure.self)
        .flatMap(maxPublishers: .max(1), transform))
  }

  /// Chains a future that cannot fail after this one, which cannot fail either.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(2)
  ///   .flatMap { DeferredFuture<String, Never>.just("#\($0)") }
  ///   .sink { print($0) }
  /// // Prints: #2
  /// ```
  public func flatMap<F: DeferredFutureProtocol>(
    _ transform: @escaping (Output) -> F
  ) -> DeferredFuture<F.Output, Never> where Failure == Never, F.Failure == Never {
    DeferredFuture<F.Output, Never>(
      publisher: erasedPublisher.flatMap(maxPublishers: .max(1), transform))
  }

  /// Performs the given closures when events of each subscription occur, keeping the result a
  /// cold future.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(1)
  ///   .handleEvents(
  ///     receiveSubscription: { _ in print("started") },
  ///     receiveOutput: { print("value \($0)") },
  ///     receiveCompletion: { print("completion \($0)") })
  ///   .sink { _ in }
  /// // Prints: started, value 1, completion finished
  /// ```
  ///
  /// The closures behave as those of `Publisher.handleEvents`: each is optional, runs before
  /// the event moves on, and runs once per subscription (so once per run of the work).
  ///
  /// - Parameters:
  ///   - receiveSubscription: Called when the subscription starts, before the work runs.
  ///   - receiveOutput: Called with the value.
  ///   - receiveCompletion: Called with the completion.
  ///   - receiveCancel: Called when the subscriber cancels.
  ///   - receiveRequest: Called with each demand the subscriber asks for.
  public func handleEvents(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture(
      publisher: erasedPublisher.handleEvents(
        receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
        receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
        receiveRequest: receiveRequest))
  }
}
