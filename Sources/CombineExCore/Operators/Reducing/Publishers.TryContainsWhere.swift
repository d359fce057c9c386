extension Publisher {
  /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate
  /// closure.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Unreadable: Error {}
  /// let cancellable = ["1", "x", "3"].publisher
  ///   .tryContains { text in
  ///     guard let value = Int(text) else { throw Unreadable() }
  ///     return value > 2
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(Unreadable())
  /// ```
  public func tryContains(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryContainsWhere<Self>
  {
    Publishers.TryContainsWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that emits a Boolean value upon receiving an element that satisfies the
  /// throwing predicate closure.
  public struct TryContainsWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: whether a match was found.
    public typealias Output = Bool

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether this publisher should emit a `true`
    /// element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that tells whether `upstream` publishes an element matching
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
      let logic = ContainsLogic<Upstream.Output, Upstream.Failure, any Error>(
        name: "TryContainsWhere", matches: { input in Result { try predicate(input) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
