extension Publisher {
  /// Combines elements from this publisher with those from four other publishers,
  /// delivering an interleaved sequence of elements.
  ///
  /// ```swift
  /// let subjects = (1...5).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = subjects[0]
  ///   .merge(with: subjects[1], subjects[2], subjects[3], subjects[4])
  ///   .sink { print($0) }
  /// for (index, subject) in subjects.enumerated().reversed() { subject.send(index) }
  /// // Prints: 4, 3, 2, 1, 0
  /// ```
  ///
  /// The result finishes when every publisher has finished, and fails as soon as one of them
  /// fails (cancelling the others). Each publisher is asked for no more than the downstream
  /// asked for; delivery is serial even when the publishers send from several threads.
  /// See ``Publishers/Merge`` for the details.
  ///
  /// - Parameters:
  ///   - b: A second publisher.
  ///   - c: A third publisher.
  ///   - d: A fourth publisher.
  ///   - e: A fifth publisher.
  /// - Returns: A publisher that emits an element whenever any upstream publisher emits one.
  public func merge<B, C, D, E>(
    with b: B, _ c: C, _ d: D, _ e: E
  ) -> Publishers.Merge5<Self, B, C, D, E>
  where
    B: Publisher, C: Publisher, D: Publisher, E: Publisher,
    Failure == B.Failure, Output == B.Output,
    B.Failure == C.Failure, B.Output == C.Output,
    C.Failure == D.Failure, C.Output == D.Output,
    D.Failure == E.Failure, D.Output == E.Output
  {
    Publishers.Merge5(self, b, c, d, e)
  }
}

extension Publishers {
  /// A publisher created by applying the merge function to five upstream publishers.
  ///
  /// Behaves like ``Publishers/Merge``: shared demand, serial delivery, completion after every
  /// upstream publisher finished, and failure as soon as one fails.
  public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>:
    Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output,
    B.Failure == C.Failure, B.Output == C.Output,
    C.Failure == D.Failure, C.Output == D.Output,
    D.Failure == E.Failure, D.Output == E.Output
  {
    /// The kind of values this publisher publishes: the upstream publishers'.
    public typealias Output = A.Output

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = A.Failure

    /// A publisher to merge.
    public let a: A

    /// A second publisher to merge.
    public let b: B

    /// A third publisher to merge.
    public let c: C

    /// A fourth publisher to merge.
    public let d: D

    /// A fifth publisher to merge.
    public let e: E

    /// Creates a publisher that merges the elements of five upstream publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
    }

    /// Attaches the subscriber: it receives its subscription, then every upstream publisher is
    /// subscribed, in order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where E.Failure == S.Failure, E.Output == S.Input {
      let storage = MergeStorage(
        mode: .fixed(inputCount: 5), downstream: subscriber, name: "Merge5")
      subscriber.receive(subscription: storage)
      storage.subscribe(a, as: 0)
      storage.subscribe(b, as: 1)
      storage.subscribe(c, as: 2)
      storage.subscribe(d, as: 3)
      storage.subscribe(e, as: 4)
    }

    /// Merges this publisher's five upstream publishers and one more into one
    /// `Publishers.Merge6`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge5(Just(1), Just(2), Just(3), Just(4), Just(5))
    /// let cancellable = merged
    ///   .merge(with: Just(6))  // one Publishers.Merge6
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6
    /// ```
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
    where E.Failure == P.Failure, E.Output == P.Output {
      Publishers.Merge6(a, b, c, d, e, other)
    }

    /// Merges this publisher's five upstream publishers and two more into one
    /// `Publishers.Merge7`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge5(Just(1), Just(2), Just(3), Just(4), Just(5))
    /// let cancellable = merged
    ///   .merge(with: Just(6), Just(7))  // one Publishers.Merge7
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7
    /// ```
    public func merge<Z, Y>(
      with z: Z, _ y: Y
    ) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
    where
      Z: Publisher, Y: Publisher,
      E.Failure == Z.Failure, E.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output
    {
      Publishers.Merge7(a, b, c, d, e, z, y)
    }

    /// Merges this publisher's five upstream publishers and three more into one
    /// `Publishers.Merge8`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge5(Just(1), Just(2), Just(3), Just(4), Just(5))
    /// let cancellable = merged
    ///   .merge(with: Just(6), Just(7), Just(8))  // one Publishers.Merge8
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7, 8
    /// ```
    public func merge<Z, Y, X>(
      with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
    where
      Z: Publisher, Y: Publisher, X: Publisher,
      E.Failure == Z.Failure, E.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output,
      Y.Failure == X.Failure, Y.Output == X.Output
    {
      Publishers.Merge8(a, b, c, d, e, z, y, x)
    }
  }
}

extension Publishers.Merge5: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
