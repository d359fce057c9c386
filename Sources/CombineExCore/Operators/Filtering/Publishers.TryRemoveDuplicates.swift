extension Publisher {
  /// Publishes only elements that don't match the previous element, as evaluated by a
  /// provided error-throwing closure.
  ///
  /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
  ///
  /// ```swift
  /// struct Mismatch: Error {}
  /// let cancellable = [1, 1, 2, -1].publisher
  ///   .tryRemoveDuplicates { previous, next in
  ///     guard next >= 0 else { throw Mismatch() }
  ///     return previous == next
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, 2, failure(Mismatch())
  /// ```
  public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryRemoveDuplicates<Self>
  {
    Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes only elements that don't match the previous element, as
  /// evaluated by a provided error-throwing closure.
  public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: any error the closure throws, or the
    /// upstream's failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// An error-throwing closure to evaluate whether two elements are equivalent, for purposes
    /// of filtering.
    public let predicate: (Output, Output) throws -> Bool

    /// Creates a publisher that publishes only elements that don't match the previous element,
    /// as evaluated by `predicate`, failing if it throws.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == Failure {
      let predicate = self.predicate
      let logic = RemoveDuplicatesLogic<Output, Upstream.Failure, any Error>(
        name: "TryRemoveDuplicates",
        isDuplicate: { previous, next in Result { try predicate(previous, next) } },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
