import CombineExCore

// The original CombineEx's `…DeferredFuture` names: the same operators under names that no
// publisher operator shares, so that a chain reads as a future at a glance. Each calls the
// operator it is named after (see there for the semantics).

extension DeferredFutureProtocol {
  /// `map(_:)`, by a name that says the result is a future.
  ///
  /// ```swift
  /// let next = DeferredFuture<Int, Never>.just(1).mapDeferredFuture { $0 + 1 }
  /// ```
  public func mapDeferredFuture<NewOutput>(
    _ transform: @escaping (Output) -> NewOutput
  ) -> DeferredFuture<NewOutput, Failure> {
    map(transform)
  }

  /// `map` with a key path, by a name that says the result is a future.
  ///
  /// ```swift
  /// let count = DeferredFuture<String, Never>.just("abc").mapDeferredFuture(\.count)
  /// ```
  public func mapDeferredFuture<T>(_ keyPath: KeyPath<Output, T>) -> DeferredFuture<T, Failure> {
    map(keyPath)
  }

  /// `map` with two key paths, by a name that says the result is a future.
  ///
  /// ```swift
  /// let pair = DeferredFuture<String, Never>.just("abc").mapDeferredFuture(\.count, \.isEmpty)
  /// ```
  public func mapDeferredFuture<T0, T1>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
  ) -> DeferredFuture<(T0, T1), Failure> {
    map(keyPath0, keyPath1)
  }

  /// `map` with three key paths, by a name that says the result is a future.
  ///
  /// ```swift
  /// let triple = DeferredFuture<String, Never>.just("abc")
  ///   .mapDeferredFuture(\.count, \.isEmpty, \.first)
  /// ```
  public func mapDeferredFuture<T0, T1, T2>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>,
    _ keyPath2: KeyPath<Output, T2>
  ) -> DeferredFuture<(T0, T1, T2), Failure> {
    map(keyPath0, keyPath1, keyPath2)
  }

  /// ``tryMap(_:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// let parsed = DeferredFuture<String, any Error>.just("7").tryMapDeferredFuture { Int($0)! }
  /// ```
  public func tryMapDeferredFuture<NewOutput>(
    _ transform: @escaping (Output) throws -> NewOutput
  ) -> DeferredFuture<NewOutput, any Error> {
    tryMap(transform)
  }

  /// ``mapError(_:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// struct Wrapped: Error { let inner: any Error }
  /// let wrapped = DeferredFuture<Int, any Error>.just(1).mapErrorDeferredFuture { Wrapped(inner: $0) }
  /// ```
  public func mapErrorDeferredFuture<NewError: Error>(
    _ transform: @escaping (Failure) -> NewError
  ) -> DeferredFuture<Output, NewError> {
    mapError(transform)
  }

  /// ``replaceNil(with:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// let named = DeferredFuture<String?, Never>.just(nil).replaceNilDeferredFuture(with: "-")
  /// ```
  public func replaceNilDeferredFuture<NewOutput>(
    with output: NewOutput
  ) -> DeferredFuture<NewOutput, Failure> where Output == NewOutput? {
    replaceNil(with: output)
  }

  /// `flatMap` to a `DeferredFuture` of the same failure, by a name that says the result is a
  /// future.
  ///
  /// ```swift
  /// let chained = DeferredFuture<Int, Never>.just(2)
  ///   .flatMapDeferredFuture { DeferredFuture<String, Never>.just("#\($0)") }
  /// ```
  public func flatMapDeferredFuture<NewOutput>(
    _ transform: @escaping (Output) -> DeferredFuture<NewOutput, Failure>
  ) -> DeferredFuture<NewOutput, Failure> {
    flatMap(transform)
  }

  /// ``flatMapError(_:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let recovered = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .flatMapErrorDeferredFuture { _ in DeferredFuture<Int, Never>.just(0) }
  /// ```
  public func flatMapErrorDeferredFuture<NewFailure>(
    _ transform: @escaping (Failure) -> DeferredFuture<Output, NewFailure>
  ) -> DeferredFuture<Output, NewFailure> {
    flatMapError(transform)
  }

  /// ``setFailureType(to:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let typed = DeferredFuture<Int, Never>.just(1).setFailureTypeDeferredFuture(to: Offline.self)
  /// ```
  public func setFailureTypeDeferredFuture<NewFailure: Error>(
    to failureType: NewFailure.Type
  ) -> DeferredFuture<Output, NewFailure> where Failure == Never {
    setFailureType(to: failureType)
  }

  /// ``replaceError(with:)``, by a name that says the result is a future (which cannot fail).
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let safe = DeferredFuture<Int, Offline>.fail(Offline()).replaceErrorDeferredFuture(with: 0)
  /// ```
  public func replaceErrorDeferredFuture(with output: Output) -> DeferredFuture<Output, Never> {
    replaceError(with: output)
  }

  /// ``combineLatest(_:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// let both = DeferredFuture<Int, Never>.just(1)
  ///   .combineLatestDeferredFuture(DeferredFuture<String, Never>.just("a"))
  /// ```
  public func combineLatestDeferredFuture<P>(
    _ other: some DeferredFutureProtocol<P, Failure>
  ) -> DeferredFuture<(Output, P), Failure> {
    combineLatest(other)
  }

  /// `combineLatest(_:_:)`, by a name that says the result
  /// is a future.
  ///
  /// ```swift
  /// let sum = DeferredFuture<Int, Never>.just(1)
  ///   .combineLatestDeferredFuture(DeferredFuture<Int, Never>.just(2), +)
  /// ```
  public func combineLatestDeferredFuture<P, T>(
    _ other: some DeferredFutureProtocol<P, Failure>, _ transform: @escaping (Output, P) -> T
  ) -> DeferredFuture<T, Failure> {
    combineLatest(other, transform)
  }

  /// `combineLatest` of three futures, by a name that says the result is a future.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let three = one.combineLatestDeferredFuture(one, one)
  /// ```
  public func combineLatestDeferredFuture<P, Q>(
    _ publisher1: some DeferredFutureProtocol<P, Failure>,
    _ publisher2: some DeferredFutureProtocol<Q, Failure>
  ) -> DeferredFuture<(Output, P, Q), Failure> {
    combineLatest(publisher1, publisher2)
  }

  /// `combineLatest` of three futures with a transform, by a name that says the result is a
  /// future.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let sum = one.combineLatestDeferredFuture(one, one) { $0 + $1 + $2 }
  /// ```
  public func combineLatestDeferredFuture<P, Q, T>(
    _ publisher1: some DeferredFutureProtocol<P, Failure>,
    _ publisher2: some DeferredFutureProtocol<Q, Failure>,
    _ transform: @escaping (Output, P, Q) -> T
  ) -> DeferredFuture<T, Failure> {
    combineLatest(publisher1, publisher2, transform)
  }

  /// `combineLatest` of four futures, by a name that says the result is a future.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let four = one.combineLatestDeferredFuture(one, one, one)
  /// ```
  public func combineLatestDeferredFuture<P, Q, R>(
    _ publisher1: some DeferredFutureProtocol<P, Failure>,
    _ publisher2: some DeferredFutureProtocol<Q, Failure>,
    _ publisher3: some DeferredFutureProtocol<R, Failure>
  ) -> DeferredFuture<(Output, P, Q, R), Failure> {
    combineLatest(publisher1, publisher2, publisher3)
  }

  /// `combineLatest` of four futures with a transform, by a name that says the result is a
  /// future.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let sum = one.combineLatestDeferredFuture(one, one, one) { $0 + $1 + $2 + $3 }
  /// ```
  public func combineLatestDeferredFuture<P, Q, R, T>(
    _ publisher1: some DeferredFutureProtocol<P, Failure>,
    _ publisher2: some DeferredFutureProtocol<Q, Failure>,
    _ publisher3: some DeferredFutureProtocol<R, Failure>,
    _ transform: @escaping (Output, P, Q, R) -> T
  ) -> DeferredFuture<T, Failure> {
    combineLatest(publisher1, publisher2, publisher3, transform)
  }

  /// ``catch(_:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cached = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .catchDeferredFuture { _ in DeferredFuture<Int, Offline>.just(0) }
  /// ```
  public func catchDeferredFuture(
    _ transform: @escaping (Failure) -> some DeferredFutureProtocol<Output, Failure>
  ) -> DeferredFuture<Output, Failure> {
    self.catch(transform)
  }

  /// ``tryCatch(_:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// let recovered = DeferredFuture<Int, any Error>.fail(CancellationError())
  ///   .tryCatchDeferredFuture { _ in DeferredFuture<Int, any Error>.just(0) }
  /// ```
  public func tryCatchDeferredFuture(
    _ transform: @escaping (Failure) throws -> some DeferredFutureProtocol<Output, Failure>
  ) -> DeferredFuture<Output, Failure> where Failure == any Error {
    tryCatch(transform)
  }

  /// ``retry(_:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// let patient = DeferredFuture<Int, any Error>.just(1).retryDeferredFuture(3)
  /// ```
  public func retryDeferredFuture(_ retries: Int) -> DeferredFuture<Output, Failure> {
    retry(retries)
  }

  /// ``encode(encoder:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// let json = DeferredFuture<[Int], Never>.just([1]).encodeDeferredFuture(encoder: JSONEncoder())
  /// ```
  public func encodeDeferredFuture<Coder: TopLevelEncoder>(
    encoder: Coder
  ) -> DeferredFuture<Coder.Output, any Error> where Output: Encodable {
    encode(encoder: encoder)
  }

  /// ``decode(item:decoder:)``, by a name that says the result is a future.
  ///
  /// ```swift
  /// let numbers = DeferredFuture<Data, Never>.just(Data("[1]".utf8))
  ///   .decodeDeferredFuture(item: [Int].self, decoder: JSONDecoder())
  /// ```
  public func decodeDeferredFuture<Item: Decodable, Coder: TopLevelDecoder>(
    item: Item.Type, decoder: Coder
  ) -> DeferredFuture<Item, any Error> where Output == Coder.Input {
    decode(item: item, decoder: decoder)
  }
}
