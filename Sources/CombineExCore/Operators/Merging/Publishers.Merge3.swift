extension Publisher {
  /// Combines elements from this publisher with those from two other publishers,
  /// delivering an interleaved sequence of elements.
  ///
  /// ```swift
  /// let subjects = (1...3).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = subjects[0]
  ///   .merge(with: subjects[1], subjects[2])
  ///   .sink { print($0) }
  /// for (index, subject) in subjects.enumerated().reversed() { subject.send(index) }
  /// // Prints: 2, 1, 0
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
  /// - Returns: A publisher that emits an element whenever any upstream publisher emits one.
  public func merge<B, C>(
    with b: B, _ c: C
  ) -> Publishers.Merge3<Self, B, C>
  where
    B: Publisher, C: Publisher,
    Failure == B.Failure, Output == B.Output,
    B.Failure == C.Failure, B.Output == C.Output
  {
    Publishers.Merge3(self, b, c)
  }
}

extension Publishers {
  /// A publisher created by applying the merge function to three upstream publishers.
  ///
  /// Behaves like ``Publishers/Merge``: shared demand, serial delivery, completion after every
  /// upstream publisher finished, and failure as soon as one fails.
  public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output,
    B.Failure == C.Failure, B.Output == C.Output
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

    /// Creates a publisher that merges the elements of three upstream publishers.
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
    where C.Failure == S.Failure, C.Output == S.Input {
      let storage = MergeStorage(
        mode: .fixed(inputCount: 3), downstream: subscriber, name: "Merge3")
      subscriber.receive(subscription: storage)
      storage.subscribe(a, as: 0)
      storage.subscribe(b, as: 1)
      storage.subscribe(c, as: 2)
    }

    /// Merges this publisher's three upstream publishers and one more into one
    /// `Publishers.Merge4`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge3(Just(1), Just(2), Just(3))
    /// let cancellable = merged
    ///   .merge(with: Just(4))  // one Publishers.Merge4
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge4<A, B, C, P>
    where C.Failure == P.Failure, C.Output == P.Output {
      Publishers.Merge4(a, b, c, other)
    }

    /// Merges this publisher's three upstream publishers and two more into one
    /// `Publishers.Merge5`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge3(Just(1), Just(2), Just(3))
    /// let cancellable = merged
    ///   .merge(with: Just(4), Just(5))  // one Publishers.Merge5
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5
    /// ```
    public func merge<Z, Y>(
      with z: Z, _ y: Y
    ) -> Publishers.Merge5<A, B, C, Z, Y>
    where
      Z: Publisher, Y: Publisher,
      C.Failure == Z.Failure, C.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output
    {
      Publishers.Merge5(a, b, c, z, y)
    }

    /// Merges this publisher's three upstream publishers and three more into one
    /// `Publishers.Merge6`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge3(Just(1), Just(2), Just(3))
    /// let cancellable = merged
    ///   .merge(with: Just(4), Just(5), Just(6))  // one Publishers.Merge6
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6
    /// ```
    public func merge<Z, Y, X>(
      with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge6<A, B, C, Z, Y, X>
    where
      Z: Publisher, Y: Publisher, X: Publisher,
      C.Failure == Z.Failure, C.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output,
      Y.Failure == X.Failure, Y.Output == X.Output
    {
      Publishers.Merge6(a, b, c, z, y, x)
    }

    /// Merges this publisher's three upstream publishers and four more into one
    /// `Publishers.Merge7`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge3(Just(1), Just(2), Just(3))
    /// let cancellable = merged
    ///   .merge(with: Just(4), Just(5), Just(6), Just(7))  // one Publishers.Merge7
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7
    /// ```
    public func merge<Z, Y, X, W>(
      with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
    where
      Z: Publisher, Y: Publisher, X: Publisher, W: Publisher,
      C.Failure == Z.Failure, C.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output,
      Y.Failure == X.Failure, Y.Output == X.Output,
      X.Failure == W.Failure, X.Output == W.Output
    {
      Publishers.Merge7(a, b, c, z, y, x, w)
    }

    /// Merges this publisher's three upstream publishers and five more into one
    /// `Publishers.Merge8`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge3(Just(1), Just(2), Just(3))
    /// let cancellable = merged
    ///   .merge(with: Just(4), Just(5), Just(6), Just(7), Just(8))  // one Publishers.Merge8
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7, 8
    /// ```
    public func merge<Z, Y, X, W, V>(
      with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
    where
      Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher,
      C.Failure == Z.Failure, C.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output,
      Y.Failure == X.Failure, Y.Output == X.Output,
      X.Failure == W.Failure, X.Output == W.Output,
      W.Failure == V.Failure, W.Output == V.Output
    {
      Publishers.Merge8(a, b, c, z, y, x, w, v)
    }
  }
}

extension Publishers.Merge3: Equatable
where A: Equatable, B: Equatable, C: Equatable {}
