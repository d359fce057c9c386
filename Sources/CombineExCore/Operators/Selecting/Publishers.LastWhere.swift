extension Publisher {
  /// Publishes the last element of a stream that satisfies a predicate closure, after the
  /// stream finishes.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3, 4, 5].publisher
  ///   .last { $0.isMultiple(of: 2) }
  ///   .sink { print($0) }
  /// // Prints: 4
  /// ```
  ///
  /// The operator requests unlimited elements; when the upstream finishes it publishes the last
  /// match, if any, then finishes. A failure is passed on without a value.
  public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
    Publishers.LastWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that waits until after the stream finishes and then publishes the last
  /// element of the stream that satisfies a predicate closure.
  public struct LastWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether to publish an element.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that publishes the last element of `upstream` matching `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Failure == S.Failure, Output == S.Input {
      let predicate = self.predicate
      let logic = LastLogic<Output, Failure, Failure>(
        name: "LastWhere", matches: { .success(predicate($0)) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
