extension Publisher {
  /// Subscribes to two additional publishers and publishes a tuple upon receiving output from
  /// any of the publishers.
  ///
  /// ```swift
  /// let width = PassthroughSubject<Int, Never>()
  /// let height = PassthroughSubject<Int, Never>()
  /// let depth = PassthroughSubject<Int, Never>()
  /// let cancellable = width.combineLatest(height, depth).sink { print($0) }
  /// width.send(1)
  /// height.send(2)
  /// depth.send(3)
  /// width.send(4)
  /// // Prints: (1, 2, 3), (4, 2, 3)
  /// ```
  ///
  /// Behaves like ``combineLatest(_:)``: nothing is published until every publisher has
  /// published a value; see ``Publishers/CombineLatest3``.
  ///
  /// - Parameters:
  ///   - publisher1: A second publisher to combine with the first publisher.
  ///   - publisher2: A third publisher to combine with the first publisher.
  /// - Returns: A publisher that receives and combines elements from this publisher and two
  ///   other publishers.
  public func combineLatest<P: Publisher, Q: Publisher>(
    _ publisher1: P, _ publisher2: Q
  ) -> Publishers.CombineLatest3<Self, P, Q>
  where Failure == P.Failure, P.Failure == Q.Failure {
    Publishers.CombineLatest3(self, publisher1, publisher2)
  }

  /// Subscribes to two additional publishers and invokes a closure upon receiving output from
  /// any of the publishers.
  ///
  /// ```swift
  /// let width = PassthroughSubject<Int, Never>()
  /// let height = PassthroughSubject<Int, Never>()
  /// let depth = PassthroughSubject<Int, Never>()
  /// let cancellable = width.combineLatest(height, depth) { $0 * $1 * $2 }
  ///   .sink { print($0) }
  /// width.send(1)
  /// height.send(2)
  /// depth.send(3)
  /// width.send(4)
  /// // Prints: 6, 24
  /// ```
  ///
  /// The result is `combineLatest(publisher1, publisher2).map(transform)`.
  ///
  /// - Parameters:
  ///   - publisher1: A second publisher to combine with the first publisher.
  ///   - publisher2: A third publisher to combine with the first publisher.
  ///   - transform: A closure that receives the most-recent value from each publisher and
  ///     returns a new value to publish.
  /// - Returns: A publisher that receives and combines elements from this publisher and two
  ///   other publishers.
  public func combineLatest<P: Publisher, Q: Publisher, T>(
    _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
  where Failure == P.Failure, P.Failure == Q.Failure {
    Publishers.Map(
      upstream: Publishers.CombineLatest3(self, publisher1, publisher2), transform: transform)
  }
}

extension Publishers {
  /// A publisher that receives and combines the latest elements from three publishers.
  ///
  /// Behaves like ``Publishers/CombineLatest``: demand passes through to every publisher,
  /// nothing is published until every publisher has published a value, a value that arrives
  /// without demand only replaces its publisher's latest value, the result finishes once every
  /// publisher has finished and fails as soon as one fails, and delivery is serial.
  public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where A.Failure == B.Failure, B.Failure == C.Failure {
    /// The kind of values this publisher publishes: a tuple of the latest value of each
    /// publisher.
    public typealias Output = (A.Output, B.Output, C.Output)

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = A.Failure

    /// A publisher to combine.
    public let a: A

    /// A second publisher to combine.
    public let b: B

    /// A third publisher to combine.
    public let c: C

    /// Creates a publisher that receives and combines the latest elements from three
    /// publishers.
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
      let storage = CombiningStorage<LatestValues3<A.Output, B.Output, C.Output>, S>(
        downstream: subscriber, name: "CombineLatest")
      storage.start()
      storage.subscribe(a, at: 0) { $0.a = $1 }
      storage.subscribe(b, at: 1) { $0.b = $1 }
      storage.subscribe(c, at: 2) { $0.c = $1 }
    }
  }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
