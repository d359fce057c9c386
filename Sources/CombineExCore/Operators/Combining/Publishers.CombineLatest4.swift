extension Publisher {
  /// Subscribes to three additional publishers and publishes a tuple upon receiving output
  /// from any of the publishers.
  ///
  /// ```swift
  /// let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = subjects[0].combineLatest(subjects[1], subjects[2], subjects[3])
  ///   .sink { print($0) }
  /// for (index, subject) in subjects.enumerated() { subject.send(index) }
  /// subjects[0].send(10)
  /// // Prints: (0, 1, 2, 3), (10, 1, 2, 3)
  /// ```
  ///
  /// Behaves like ``combineLatest(_:)``: nothing is published until every publisher has
  /// published a value; see ``Publishers/CombineLatest4``.
  ///
  /// - Parameters:
  ///   - publisher1: A second publisher to combine with the first publisher.
  ///   - publisher2: A third publisher to combine with the first publisher.
  ///   - publisher3: A fourth publisher to combine with the first publisher.
  /// - Returns: A publisher that receives and combines elements from this publisher and three
  ///   other publishers.
  public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
    _ publisher1: P, _ publisher2: Q, _ publisher3: R
  ) -> Publishers.CombineLatest4<Self, P, Q, R>
  where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
    Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
  }

  /// Subscribes to three additional publishers and invokes a closure upon receiving output
  /// from any of the publishers.
  ///
  /// ```swift
  /// let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = subjects[0]
  ///   .combineLatest(subjects[1], subjects[2], subjects[3]) { $0 + $1 + $2 + $3 }
  ///   .sink { print($0) }
  /// for (index, subject) in subjects.enumerated() { subject.send(index) }
  /// subjects[0].send(10)
  /// // Prints: 6, 16
  /// ```
  ///
  /// The result is `combineLatest(publisher1, publisher2, publisher3).map(transform)`.
  ///
  /// - Parameters:
  ///   - publisher1: A second publisher to combine with the first publisher.
  ///   - publisher2: A third publisher to combine with the first publisher.
  ///   - publisher3: A fourth publisher to combine with the first publisher.
  ///   - transform: A closure that receives the most-recent value from each publisher and
  ///     returns a new value to publish.
  /// - Returns: A publisher that receives and combines elements from this publisher and three
  ///   other publishers.
  public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ publisher1: P, _ publisher2: Q, _ publisher3: R,
    _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
  where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
    Publishers.Map(
      upstream: Publishers.CombineLatest4(self, publisher1, publisher2, publisher3),
      transform: transform)
  }
}

extension Publishers {
  /// A publisher that receives and combines the latest elements from four publishers.
  ///
  /// Behaves like ``Publishers/CombineLatest``: demand passes through to every publisher,
  /// nothing is published until every publisher has published a value, a value that arrives
  /// without demand only replaces its publisher's latest value, the result finishes once every
  /// publisher has finished and fails as soon as one fails, and delivery is serial.
  public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
    /// The kind of values this publisher publishes: a tuple of the latest value of each
    /// publisher.
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = A.Failure

    /// A publisher to combine.
    public let a: A

    /// A second publisher to combine.
    public let b: B

    /// A third publisher to combine.
    public let c: C

    /// A fourth publisher to combine.
    public let d: D

    /// Creates a publisher that receives and combines the latest elements from four
    /// publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    /// Attaches the subscriber: it receives its subscription, then every upstream publisher is
    /// subscribed, in order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where D.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output, D.Output) {
      let storage = CombiningStorage<LatestValues4<A.Output, B.Output, C.Output, D.Output>, S>(
        downstream: subscriber, name: "CombineLatest")
      storage.start()
      storage.subscribe(a, at: 0) { $0.a = $1 }
      storage.subscribe(b, at: 1) { $0.b = $1 }
      storage.subscribe(c, at: 2) { $0.c = $1 }
      storage.subscribe(d, at: 3) { $0.d = $1 }
    }
  }
}

extension Publishers.CombineLatest4: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
