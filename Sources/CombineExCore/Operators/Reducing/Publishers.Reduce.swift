extension Publisher {
  /// Applies a closure that collects each element of a stream and publishes a final result
  /// upon completion.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4].publisher
  ///   .reduce(0, +)
  ///   .sink { print($0) }
  /// // Prints: 10
  /// ```
  ///
  /// The operator requests unlimited elements from the upstream; the result is delivered once
  /// the upstream finishes and the subscriber has demand. A failure is passed on at once.
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Reduce<Self, T> {
    Publishers.Reduce(
      upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Applies an error-throwing closure that collects each element of a stream and publishes a
  /// final result upon completion.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the error.
  ///
  /// ```swift
  /// struct Overflow: Error {}
  /// let cancellable = [100, 200].publisher
  ///   .tryReduce(0) { total, next in
  ///     guard total + next < 250 else { throw Overflow() }
  ///     return total + next
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(Overflow())
  /// ```
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryReduce<Self, T> {
    Publishers.TryReduce(
      upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that applies a closure to all received elements and produces an accumulated
  /// value when the upstream publisher finishes.
  public struct Reduce<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The initial value provided on the first invocation of the closure.
    public let initial: Output

    /// A closure that takes the previously-accumulated value and the next element from the
    /// upstream publisher to produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a publisher that reduces the elements of `upstream` into one value.
    public init(
      upstream: Upstream, initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      let logic = ReduceLogic<Upstream.Output, Output, Failure, Failure>(
        name: "Reduce", initialState: initial,
        step: { accumulator, next in .success(nextPartialResult(accumulator, next)) },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }

  /// A publisher that applies an error-throwing closure to all received elements and produces
  /// an accumulated value when the upstream publisher finishes.
  public struct TryReduce<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The initial value provided on the first invocation of the closure.
    public let initial: Output

    /// An error-throwing closure that takes the previously-accumulated value and the next
    /// element from the upstream to produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a publisher that reduces the elements of `upstream` into one value, failing if
    /// the closure throws.
    public init(
      upstream: Upstream, initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      let logic = ReduceLogic<Upstream.Output, Output, Upstream.Failure, any Error>(
        name: "TryReduce", initialState: initial,
        step: { accumulator, next in Result { try nextPartialResult(accumulator, next) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `reduce` and `tryReduce`: fold every element into the accumulator; a failing step fails.
@usableFromInline
struct ReduceLogic<Input, Output, UpstreamFailure: Error, Failure: Error>: ReducingLogic {
  @usableFromInline let name: String
  /// The state is the accumulator; it starts from the initial result.
  @usableFromInline let initialState: Output
  @usableFromInline let step: (Output, Input) -> Result<Output, Failure>
  @usableFromInline let convertFailure: (UpstreamFailure) -> Failure

  @inlinable
  init(
    name: String, initialState: Output, step: @escaping (Output, Input) -> Result<Output, Failure>,
    convertFailure: @escaping (UpstreamFailure) -> Failure
  ) {
    self.name = name
    self.initialState = initialState
    self.step = step
    self.convertFailure = convertFailure
  }

  @inlinable
  func result(_ accumulator: Output) -> Output? { accumulator }

  @inlinable
  func receive(_ input: Input, _ accumulator: inout Output) -> OperatorStep<Output, Failure> {
    switch step(accumulator, input) {
    case .success(let next):
      accumulator = next
      return .consume
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Output, Failure> {
    .completion(.failure(convertFailure(failure)))
  }
}
