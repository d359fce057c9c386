extension Publisher where Failure == Never {
  /// The elements produced by the publisher, as an asynchronous sequence.
  ///
  /// Iterate with `for await` instead of attaching a subscriber:
  ///
  /// ```swift
  /// for await value in [1, 2, 3].publisher.values {
  ///   print(value)
  /// }
  /// // Prints: 1, 2, 3
  /// ```
  ///
  /// See ``AsyncPublisher`` for demand and cancellation.
  public var values: AsyncPublisher<Self> {
    AsyncPublisher(self)
  }
}

/// A publisher that exposes its elements as an asynchronous sequence.
///
/// Making an iterator (which `for await` does) subscribes to the publisher; each `next()` call
/// then requests one value (`.max(1)`) and waits for it, so the publisher never runs ahead of
/// the loop: a `PassthroughSubject`'s values sent while the loop body runs are not seen. A
/// publisher that sends a value nobody asked for stops the program, as in Combine.
///
/// - The sequence ends (`next()` returns `nil`) when the publisher finishes.
/// - Several tasks may call `next()` on one iterator at once, as in Combine: each call
///   requests one value, values go to the calls in the order they were made, and the end of
///   the sequence ends every waiting call.
/// - Cancelling a task that awaits `next()` cancels the subscription, and every waiting call
///   returns `nil`.
/// - Dropping the iterator, for example by leaving a `for await` loop with `break` or
///   `return`, cancels the subscription.
///
/// ```swift
/// let subject = CurrentValueSubject<Int, Never>(0)
/// for await value in subject.values {
///   print(value)
///   if value == 2 { break }  // Cancels the subscription.
///   subject.send(value + 1)
/// }
/// // Prints: 0, 1, 2
/// ```
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
  /// The type of element produced by this asynchronous sequence: the publisher's output.
  public typealias Element = P.Output

  /// The type of asynchronous iterator that produces elements of this asynchronous sequence.
  public typealias AsyncIterator = Iterator

  /// The iterator that produces elements of the asynchronous publisher sequence.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of element this iterator produces: the publisher's output.
    public typealias Element = P.Output

    private let lifetime: IterationLifetime<P.Output, Never>

    fileprivate init(_ publisher: P) {
      lifetime = IterationLifetime(subscribingTo: publisher)
    }

    /// Produces the next element of the sequence, or `nil` once the publisher has finished or
    /// the iteration was cancelled.
    public mutating func next() async -> P.Output? {
      await lifetime.subscriber.next().get()
    }

    /// Produces the next element of the sequence on the caller's actor, or `nil` once the
    /// publisher has finished or the iteration was cancelled.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
      await lifetime.subscriber.next(isolation: actor).get()
    }
  }

  private let publisher: P

  /// Creates an asynchronous sequence of the elements `publisher` produces.
  public init(_ publisher: P) {
    self.publisher = publisher
  }

  /// Creates the iterator, which subscribes to the publisher.
  public func makeAsyncIterator() -> Iterator {
    Iterator(publisher)
  }
}
