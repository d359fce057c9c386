extension Publisher {
  /// Combines elements from this publisher with those from five other publishers,
  /// delivering an interleaved sequence of elements.
  ///
  /// ```swift
  /// let subjects = (1...6).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = subjects[0]
  ///   .merge(with: subjects[1], subjects[2], subjects[3], subjects[4], subjects[5])
  ///   .sink { print($0) }
  /// for (index, subject) in subjects.enumerated().reversed() { subject.send(index) }
  /// // Prints: 5, 4, 3, 2, 1, 0
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
  ///   - f: A sixth publisher.
  /// - Returns: A publisher that emits an element whenever any upstream publisher emits one.
  public func merge<B, C, D, E, F>(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) -> Publishers.Merge6<Self, B, C, D, E, F>
  where
    B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
    Failure == B.Failure, Output == B.Output,
    B.Failure == C.Failure, B.Output == C.Output,
    C.Failure == D.Failure, C.Output == D.Output,
    D.Failure == E.Failure, D.Output == E.Output,
    E.Failure == F.Failure, E.Output == F.Output
  {
    Publishers.Merge6(self, b, c, d, e, f)
  }
}

extension Publishers {
  /// A publisher created by applying the merge function to six upstream publishers.
  ///
  /// Behaves like ``Publishers/Merge``: shared demand, serial delivery, completion after every
  /// upstream publisher finished, and failure as soon as one fails.
  public struct Merge6<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher
  >: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output,
    B.Failure == C.Failure, B.Output == C.Output,
    C.Failure == D.Failure, C.Output == D.Output,
    D.Failure == E.Failure, D.Output == E.Output,
    E.Failure == F.Failure, E.Output == F.Output
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

    /// A sixth publisher to merge.
    public let f: F

    /// Creates a publisher that merges the elements of six upstream publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
    }

    /// Attaches the subscriber: it receives its subscription, then every upstream publisher is
    /// subscribed, in order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where F.Failure == S.Failure, F.Output == S.Input {
      let storage = MergeStorage(
        mode: .fixed(inputCount: 6), downstream: subscriber, name: "Merge6")
      subscriber.receive(subscription: storage)
      storage.subscribe(a, as: 0)
      storage.subscribe(b, as: 1)
      storage.subscribe(c, as: 2)
      storage.subscribe(d, as: 3)
      storage.subscribe(e, as: 4)
      storage.subscribe(f, as: 5)
    }

    /// Merges this publisher's six upstream publishers and one more into one
    /// `Publishers.Merge7`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge6(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6))
    /// let cancellable = merged
    ///   .merge(with: Just(7))  // one Publishers.Merge7
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7
    /// ```
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where F.Failure == P.Failure, F.Output == P.Output {
      Publishers.Merge7(a, b, c, d, e, f, other)
    }

    /// Merges this publisher's six upstream publishers and two more into one
    /// `Publishers.Merge8`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge6(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6))
    /// let cancellable = merged
    ///   .merge(with: Just(7), Just(8))  // one Publishers.Merge8
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7, 8
    /// ```
    public func merge<Z, Y>(
      with z: Z, _ y: Y
    ) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
    where
      Z: Publisher, Y: Publisher,
      F.Failure == Z.Failure, F.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output
    {
      Publishers.Merge8(a, b, c, d, e, f, z, y)
    }
  }
}

extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
