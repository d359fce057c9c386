extension Publisher {
  /// Publishes the first element of a stream to satisfy a predicate closure, then finishes.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4].publisher
  ///   .first { $0 > 2 }
  ///   .sink { print($0) }
  /// // Prints: 3
  /// ```
  ///
  /// The operator requests unlimited elements; on the first match it cancels the upstream and
  /// publishes it, then finishes. If the upstream finishes without a match, so does this
  /// publisher, without a value; a failure is passed on.
  public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
    Publishers.FirstWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that only publishes the first element of a stream to satisfy a predicate
  /// closure.
  public struct FirstWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether to publish an element.
    public let predicate: (Output) -> Bool

    /// Creates a publisher that publishes the first element of `upstream` matching
    /// `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Failure == S.Failure, Output == S.Input {
      let predicate = self.predicate
      // Combine names this subscription "TryFirst" (its description), and so do we.
      let logic = FirstLogic<Output, Failure, Failure>(
        name: "TryFirst", matches: { .success(predicate($0)) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
