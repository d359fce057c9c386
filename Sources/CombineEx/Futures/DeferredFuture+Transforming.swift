import CombineExCore

// Single-value transforming operators. On a future made from work (or composed of such), each
// composes its step onto the work's start closure, so the whole chain runs as one
// subscription; on a future made from a publisher (`delay`, `receive(on:)`, ...), each
// returns a `DeferredFuture` that subscribes this future once. Either way the work runs once
// per subscription.

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
  /// - Parameter transform: Applied to the value; the failure passes through unchanged. It
  ///   runs when the work reports its value, which may be before the subscriber asks for it.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> DeferredFuture<T, Failure> {
    guard let chain = composableChain else {
      return DeferredFuture(publisher: erasedPublisher.map(transform))
    }
    return DeferredFuture(
      chain: chain.then { result, _, promise in promise(result.map(transform)) })
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
    guard composableChain != nil else {
      return DeferredFuture<T, Failure>(publisher: erasedPublisher.map(keyPath))
    }
    return map { $0[keyPath: keyPath] }
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
    guard composableChain != nil else {
      return DeferredFuture<(T0, T1), Failure>(
        publisher: erasedPublisher.map(keyPath0, keyPath1))
    }
    return map { ($0[keyPath: keyPath0], $0[keyPath: keyPath1]) }
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
    guard composableChain != nil else {
      return DeferredFuture<(T0, T1, T2), Failure>(
        publisher: erasedPublisher.map(keyPath0, keyPath1, keyPath2))
    }
    return map { ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2]) }
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
    guard let chain = composableChain else {
      return DeferredFuture<T, any Error>(publisher: erasedPublisher.tryMap(transform))
    }
    return DeferredFuture(
      chain: chain.then { result, _, promise in
        switch result {
        case .success(let value): promise(Result { try transform(value) })
        case .failure(let error): promise(.failure(error))
        }
      })
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
    guard let chain = composableChain else {
      return DeferredFuture<Output, E>(publisher: erasedPublisher.mapError(transform))
    }
    return DeferredFuture(
      chain: chain.then { result, _, promise in promise(result.mapError(transform)) })
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
    guard let chain = composableChain else {
      return DeferredFuture<Output, E>(publisher: erasedPublisher.setFailureType(to: failureType))
    }
    return DeferredFuture(
      chain: chain.then { result, _, promise in promise(result.mapError { never -> E in }) })
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
  /// The next future's work runs once per subscription of the chain, after this one's value
  /// arrives; a failure of either fails the chain, and cancelling cancels whichever runs. When
  /// both are made from work (promise or `async` closures, `just`, `fail`, and single-value
  /// operators on those), the chain runs as one subscription.
  @inlinable
  public func flatMap<F: DeferredFutureProtocol>(
    _ transform: @escaping (Output) -> F
  ) -> DeferredFuture<F.Output, Failure> where F.Failure == Failure {
    guard let chain = composableChain else {
      return DeferredFuture<F.Output, Failure>(
        publisher: erasedPublisher.flatMap(maxPublishers: .max(1), transform))
    }
    return DeferredFuture(
      chain: chain.then { result, run, promise in
        switch result {
        case .success(let value): transform(value).run(in: run, promise: promise)
        case .failure(let error): promise(.failure(error))
        }
      })
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
  @inlinable
  public func flatMap<F: DeferredFutureProtocol>(
    _ transform: @escaping (Output) -> F
  ) -> DeferredFuture<F.Output, Failure> where F.Failure == Never {
    guard let chain = composableChain else {
      return DeferredFuture<F.Output, Failure>(
        publisher: erasedPublisher.flatMap(maxPublishers: .max(1)) {
          transform($0).setFailureType(to: Failure.self)
        })
    }
    return DeferredFuture(
      chain: chain.then { result, run, promise in
        switch result {
        case .success(let value):
          transform(value).run(in: run) { promise($0.mapError { never -> Failure in }) }
        case .failure(let error):
          promise(.failure(error))
        }
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
  @inlinable
  public func flatMap<F: DeferredFutureProtocol>(
    _ transform: @escaping (Output) -> F
  ) -> DeferredFuture<F.Output, F.Failure> where Failure == Never {
    guard let chain = composableChain else {
      return DeferredFuture<F.Output, F.Failure>(
        publisher: erasedPublisher.setFailureType(to: F.Failure.self)
          .flatMap(maxPublishers: .max(1), transform))
    }
    return DeferredFuture(
      chain: chain.then { result, run, promise in
        switch result {
        case .success(let value): transform(value).run(in: run, promise: promise)
        }
      })
  }

  /// Chains a future that cannot fail after this one, which cannot fail either.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(2)
  ///   .flatMap { DeferredFuture<String, Never>.just("#\($0)") }
  ///   .sink { print($0) }
  /// // Prints: #2
  /// ```
  @inlinable
  public func flatMap<F: DeferredFutureProtocol>(
    _ transform: @escaping (Output) -> F
  ) -> DeferredFuture<F.Output, Never> where Failure == Never, F.Failure == Never {
    guard let chain = composableChain else {
      return DeferredFuture<F.Output, Never>(
        publisher: erasedPublisher.flatMap(maxPublishers: .max(1), transform))
    }
    return DeferredFuture(
      chain: chain.then { result, run, promise in
        switch result {
        case .success(let value): transform(value).run(in: run, promise: promise)
        }
      })
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
