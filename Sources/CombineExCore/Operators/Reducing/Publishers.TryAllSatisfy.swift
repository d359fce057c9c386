extension Publisher {
  /// Publishes a single Boolean value that indicates whether all received elements pass a
  /// given error-throwing predicate.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Unreadable: Error {}
  /// let cancellable = ["1", "2", "3"].publisher
  ///   .tryAllSatisfy { text in
  ///     guard let value = Int(text) else { throw Unreadable() }
  ///     return value > 0
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: true, finished
  /// ```
  public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryAllSatisfy<Self>
  {
    Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes a single Boolean value that indicates whether all received
  /// elements pass a given error-throwing predicate.
  public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: whether every element passed.
    public typealias Output = Bool

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that evaluates each received element.
    ///
    /// Return `true` to continue, or `false` to cancel the upstream and finish with `false`.
    /// The publisher fails, after cancelling the upstream, if the closure throws.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that tells whether every element of `upstream` matches
    /// `predicate`, failing if it throws.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Failure == Failure, S.Input == Bool {
      let predicate = self.predicate
      let logic = AllSatisfyLogic<Upstream.Output, Upstream.Failure, any Error>(
        name: "TryAllSatisfy", passes: { input in Result { try predicate(input) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
