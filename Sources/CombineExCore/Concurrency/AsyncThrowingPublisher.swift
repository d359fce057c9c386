extension Publisher {
  /// The elements produced by the publisher, as a throwing asynchronous sequence.
  ///
  /// Iterate with `for try await`; the publisher's failure is thrown from the loop:
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let publisher = [1, 2].publisher.setFailureType(to: Offline.self)
  ///   .append(Fail(error: Offline()))
  /// do {
  ///   for try await value in publisher.values {
  ///     print(value)
  ///   }
  /// } catch {
  ///   print(error)
  /// }
  /// // Prints: 1, 2, Offline()
  /// ```
  ///
  /// See ``AsyncThrowingPublisher`` for demand and cancellation.
  public var values: AsyncThrowingPublisher<Self> {
    AsyncThrowingPublisher(self)
  }
}

/// A publisher that exposes its elements as a throwing asynchronous sequence.
///
/// It behaves like ``AsyncPublisher`` (one `.max(1)` request per `next()` call; cancelling
/// the awaiting task or dropping the iterator cancels the subscription and ends the sequence),
/// and in addition throws the publisher's failure from `next()`. After the failure has been
/// thrown, `next()` returns `nil`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
  /// The type of element produced by this asynchronous sequence: the publisher's output.
  public typealias Element = P.Output

  /// The type of asynchronous iterator that produces elements of this asynchronous sequence.
  public typealias AsyncIterator = Iterator

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of element this iterator produces: the publisher's output.
    public typealias Element = P.Output

    private let lifetime: IterationLifetime<P.Output, P.Failure>

    fileprivate init(_ publisher: P) {
      lifetime = IterationLifetime(subscribingTo: publisher)
    }

    /// Produces the next element of the sequence, or `nil` once the publisher has finished or
    /// the iteration was cancelled; throws the publisher's failure.
    public mutating func next() async throws -> P.Output? {
      try await lifetime.subscriber.next().get()
    }

    /// Produces the next element of the sequence on the caller's actor, or `nil` once the
    /// publisher has finished or the iteration was cancelled; throws the publisher's failure.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> P.Output? {
      try await lifetime.subscriber.next(isolation: actor).get()
    }
  }

  private let publisher: P

  /// Creates a throwing asynchronous sequence of the elements `publisher` produces.
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// Creates the iterator, which subscribes to the publisher.
  public func makeAsyncIterator() -> Iterator {
    Iterator(publisher)
  }
}
