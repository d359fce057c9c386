extension Publisher {
  /// Publishes the first element of a stream to satisfy a throwing predicate closure, then
  /// finishes.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Unreadable: Error {}
  /// let cancellable = ["1", "5", "x"].publisher
  ///   .tryFirst { text in
  ///     guard let value = Int(text) else { throw Unreadable() }
  ///     return value > 2
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 5, finished
  /// ```
  public func tryFirst(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryFirstWhere<Self>
  {
    Publishers.TryFirstWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that only publishes the first element of a stream to satisfy a throwing
  /// predicate closure.
  public struct TryFirstWhere<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The error-throwing closure that determines whether to publish an element.
    public let predicate: (Output) throws -> Bool

    /// Creates a publisher that publishes the first element of `upstream` matching
    /// `predicate`, failing if it throws.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Failure == S.Failure, Output == S.Input {
      let predicate = self.predicate
      let logic = FirstLogic<Output, Upstream.Failure, any Error>(
        name: "TryFirstWhere", matches: { input in Result { try predicate(input) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
