extension Publisher {
  /// Combines elements from three other publishers and delivers groups of elements as tuples.
  ///
  /// ```swift
  /// let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = subjects[0].zip(subjects[1], subjects[2], subjects[3])
  ///   .sink { print($0) }
  /// for (index, subject) in subjects.enumerated() {
  ///   subject.send(index)
  ///   subject.send(index * 10)
  /// }
  /// // Prints: (0, 1, 2, 3), (0, 10, 20, 30)
  /// ```
  ///
  /// Behaves like ``zip(_:)``; see ``Publishers/Zip4``.
  ///
  /// - Parameters:
  ///   - publisher1: A second publisher.
  ///   - publisher2: A third publisher.
  ///   - publisher3: A fourth publisher.
  /// - Returns: A publisher that emits groups of elements from the upstream publishers as
  ///   tuples.
  public func zip<P: Publisher, Q: Publisher, R: Publisher>(
    _ publisher1: P, _ publisher2: Q, _ publisher3: R
  ) -> Publishers.Zip4<Self, P, Q, R>
  where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
    Publishers.Zip4(self, publisher1, publisher2, publisher3)
  }

  /// Combines elements from three other publishers and delivers a transformed output.
  ///
  /// ```swift
  /// let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = subjects[0]
  ///   .zip(subjects[1], subjects[2], subjects[3]) { $0 + $1 + $2 + $3 }
  ///   .sink { print($0) }
  /// for (index, subject) in subjects.enumerated() { subject.send(index) }
  /// // Prints: 6
  /// ```
  ///
  /// The result is `zip(publisher1, publisher2, publisher3).map(transform)`.
  ///
  /// - Parameters:
  ///   - publisher1: A second publisher.
  ///   - publisher2: A third publisher.
  ///   - publisher3: A fourth publisher.
  ///   - transform: A closure that receives the most-recent value from each publisher and
  ///     returns a new value to publish.
  /// - Returns: A publisher that uses the `transform` closure to emit new elements, produced
  ///   by combining the most recent value from four upstream publishers.
  public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ publisher1: P, _ publisher2: Q, _ publisher3: R,
    _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
  where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
    Publishers.Map(
      upstream: Publishers.Zip4(self, publisher1, publisher2, publisher3), transform: transform)
  }
}

extension Publishers {
  /// A publisher created by applying the zip function to four upstream publishers.
  ///
  /// Behaves like ``Publishers/Zip``: demand passes through to every publisher, the n-th
  /// values of the publishers make the n-th tuple, the result finishes as soon as a finished
  /// publisher has no value left waiting and fails as soon as one fails, and delivery is
  /// serial.
  public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
    /// The kind of values this publisher publishes: a tuple of one value of each publisher.
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = A.Failure

    /// A publisher to zip.
    public let a: A

    /// A second publisher to zip.
    public let b: B

    /// A third publisher to zip.
    public let c: C

    /// A fourth publisher to zip.
    public let d: D

    /// Creates a publisher that applies the zip function to four upstream publishers.
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
      let storage = CombiningStorage<ZipQueues4<A.Output, B.Output, C.Output, D.Output>, S>(
        downstream: subscriber, name: "Zip")
      storage.start()
      storage.subscribe(a, at: 0) { $0.a.append($1) }
      storage.subscribe(b, at: 1) { $0.b.append($1) }
      storage.subscribe(c, at: 2) { $0.c.append($1) }
      storage.subscribe(d, at: 3) { $0.d.append($1) }
    }
  }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
