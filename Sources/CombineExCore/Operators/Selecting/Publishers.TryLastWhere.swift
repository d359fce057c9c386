extension Publisher {
  /// Publishes the last element of a stream that satisfies an error-throwing predicate
  /// closure, after the stream finishes.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Unreadable: Error {}
  /// let cancellable = ["1", "4", "x", "6"].publisher
  ///   .tryLast { text in
  ///     guard let value = Int(text) else { throw Unreadable() }
  ///     return value.isMultiple(of: 2)
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(Unreadable())
  /// ```
  public func tryLast(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryLastWhere<Self>
  {
    Publishers.TryLastWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that waits until after the stream finishes and then publishes the last
  /// element of the stream that satisfies an error-throwing predicate closure.
  public struct TryLastWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether to publish an element.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a publisher that publishes the last element of `upstream` matching `predicate`,
    /// failing if it throws.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Failure == Failure, Output == S.Input {
      let predicate = self.predicate
      let logic = LastLogic<Output, Upstream.Failure, any Error>(
        name: "TryLastWhere", matches: { input in Result { try predicate(input) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
