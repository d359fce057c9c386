extension Publisher {
  /// Publishes the minimum value received from the upstream publisher, after it finishes,
  /// using the provided error-throwing ordering closure.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Incomparable: Error {}
  /// let cancellable = [3, 1, -2].publisher
  ///   .tryMin { lhs, rhs in
  ///     guard lhs >= 0, rhs >= 0 else { throw Incomparable() }
  ///     return lhs < rhs
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(Incomparable())
  /// ```
  public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryComparison<Self>
  {
    Publishers.TryComparison(upstream: self) { kept, new in try areInIncreasingOrder(new, kept) }
  }

  /// Publishes the maximum value received from the upstream publisher, after it finishes,
  /// using the provided error-throwing ordering closure.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// let cancellable = [3, 1, 2].publisher
  ///   .tryMax { $0 < $1 }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 3, finished
  /// ```
  public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryComparison<Self>
  {
    Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}

extension Publishers {
  /// A publisher that republishes items from another publisher only if each new item is in
  /// increasing order from the previously-published item, and fails if the ordering logic
  /// throws an error.
  ///
  /// It keeps the greatest element by `areInIncreasingOrder` and publishes it when the
  /// upstream finishes.
  public struct TryComparison<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that receives two elements and returns true if they are in increasing order.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

    /// Creates a publisher that publishes the greatest element of `upstream` according to
    /// `areInIncreasingOrder`, failing if it throws.
    public init(
      upstream: Upstream,
      areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
    ) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == Failure {
      let areInIncreasingOrder = self.areInIncreasingOrder
      let logic = ComparisonLogic<Output, Upstream.Failure, any Error>(
        name: "TryComparison",
        isReplacedBy: { kept, new in Result { try areInIncreasingOrder(kept, new) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
