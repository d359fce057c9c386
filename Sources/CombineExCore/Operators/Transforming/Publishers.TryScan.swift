extension Publisher {
  /// Transforms elements from the upstream publisher by providing the current element to an
  /// error-throwing closure along with the last value returned by the closure.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Overflow: Error {}
  /// let cancellable = [1, 2, 3, 4].publisher
  ///   .tryScan(0) { total, next in
  ///     guard total + next < 5 else { throw Overflow() }
  ///     return total + next
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, 3, failure(Overflow())
  /// ```
  public func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryScan<Self, T> {
    Publishers.TryScan(
      upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that transforms elements from the upstream publisher by providing the current
  /// element to an error-throwing closure along with the last value returned by the closure.
  public struct TryScan<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The previous result, passed to the closure with the first element.
    public let initialResult: Output

    /// An error-throwing closure that takes the previous result and the next element from the
    /// upstream publisher to produce a new value.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a publisher that publishes each partial result of folding the elements of
    /// `upstream` with `nextPartialResult`, failing if it throws.
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches the subscriber. Each subscription starts again from `initialResult`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      let nextPartialResult = self.nextPartialResult
      let logic = ScanLogic<Upstream.Output, Output, Upstream.Failure, any Error>(
        variant: .tryScan, initialState: initialResult,
        step: { accumulator, next in Result { try nextPartialResult(accumulator, next) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
