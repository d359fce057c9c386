extension Publisher {
  /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure.
  ///
  /// ```swift
  /// let cancellable = [1, 3, 4, 5].publisher
  ///   .contains { $0.isMultiple(of: 2) }
  ///   .sink { print($0) }
  /// // Prints: true
  /// ```
  ///
  /// The operator requests unlimited elements. On the first matching element it cancels the
  /// upstream and publishes `true`; if the upstream finishes without one (or is empty), it
  /// publishes `false`. A failure is passed on without a value.
  public func contains(where predicate: @escaping (Output) -> Bool)
    -> Publishers.ContainsWhere<Self>
  {
    Publishers.ContainsWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that emits a Boolean value upon receiving an element that satisfies the
  /// predicate closure.
  public struct ContainsWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: whether a match was found.
    public typealias Output = Bool

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The closure that determines whether the publisher should consider an element as a
    /// match.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a publisher that tells whether `upstream` publishes an element matching
    /// `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == Bool {
      let predicate = self.predicate
      let logic = ContainsLogic<Upstream.Output, Failure, Failure>(
        name: "ContainsWhere", matches: { .success(predicate($0)) }, convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
