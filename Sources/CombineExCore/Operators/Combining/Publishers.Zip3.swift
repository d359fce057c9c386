extension Publisher {
  /// Combines elements from two other publishers and delivers groups of elements as tuples.
  ///
  /// ```swift
  /// let first = PassthroughSubject<Int, Never>()
  /// let second = PassthroughSubject<String, Never>()
  /// let third = PassthroughSubject<Bool, Never>()
  /// let cancellable = first.zip(second, third).sink { print($0) }
  /// first.send(1)
  /// second.send("a")
  /// first.send(2)
  /// third.send(true)
  /// // Prints: (1, "a", true)
  /// ```
  ///
  /// Behaves like ``zip(_:)``; see ``Publishers/Zip3``.
  ///
  /// - Parameters:
  ///   - publisher1: A second publisher.
  ///   - publisher2: A third publisher.
  /// - Returns: A publisher that emits groups of elements from the upstream publishers as
  ///   tuples.
  public func zip<P: Publisher, Q: Publisher>(
    _ publisher1: P, _ publisher2: Q
  ) -> Publishers.Zip3<Self, P, Q>
  where Failure == P.Failure, P.Failure == Q.Failure {
    Publishers.Zip3(self, publisher1, publisher2)
  }

  /// Combines elements from two other publishers and delivers a transformed output.
  ///
  /// ```swift
  /// let first = PassthroughSubject<Int, Never>()
  /// let second = PassthroughSubject<Int, Never>()
  /// let third = PassthroughSubject<Int, Never>()
  /// let cancellable = first.zip(second, third) { $0 + $1 + $2 }.sink { print($0) }
  /// first.send(1)
  /// second.send(10)
  /// third.send(100)
  /// // Prints: 111
  /// ```
  ///
  /// The result is `zip(publisher1, publisher2).map(transform)`.
  ///
  /// - Parameters:
  ///   - publisher1: A second publisher.
  ///   - publisher2: A third publisher.
  ///   - transform: A closure that receives the most-recent value from each publisher and
  ///     returns a new value to publish.
  /// - Returns: A publisher that uses the `transform` closure to emit new elements, produced
  ///   by combining the most recent value from three upstream publishers.
  public func zip<P: Publisher, Q: Publisher, T>(
    _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
  where Failure == P.Failure, P.Failure == Q.Failure {
    Publishers.Map(upstream: Publishers.Zip3(self, publisher1, publisher2), transform: transform)
  }
}

extension Publishers {
  /// A publisher created by applying the zip function to three upstream publishers.
  ///
  /// Behaves like ``Publishers/Zip``: demand passes through to every publisher, the n-th
  /// values of the publishers make the n-th tuple, the result finishes as soon as a finished
  /// publisher has no value left waiting and fails as soon as one fails, and delivery is
  /// serial.
  public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where A.Failure == B.Failure, B.Failure == C.Failure {
    /// The kind of values this publisher publishes: a tuple of one value of each publisher.
    public typealias Output = (A.Output, B.Output, C.Output)

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = A.Failure

    /// A publisher to zip.
    public let a: A

    /// A second publisher to zip.
    public let b: B

    /// A third publisher to zip.
    public let c: C

    /// Creates a publisher that applies the zip function to three upstream publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    /// Attaches the subscriber: it receives its subscription, then every upstream publisher is
    /// subscribed, in order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where C.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output) {
      let storage = CombiningStorage<ZipQueues3<A.Output, B.Output, C.Output>, S>(
        downstream: subscriber, name: "Zip")
      storage.start()
      storage.subscribe(a, at: 0) { $0.a.append($1) }
      storage.subscribe(b, at: 1) { $0.b.append($1) }
      storage.subscribe(c, at: 2) { $0.c.append($1) }
    }
  }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
