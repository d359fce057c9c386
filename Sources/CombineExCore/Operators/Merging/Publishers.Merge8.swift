extension Publisher {
  /// Combines elements from this publisher with those from seven other publishers,
  /// delivering an interleaved sequence of elements.
  ///
  /// ```swift
  /// let subjects = (1...8).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = subjects[0]
  ///   .merge(with: subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6], subjects[7])
  ///   .sink { print($0) }
  /// for (index, subject) in subjects.enumerated().reversed() { subject.send(index) }
  /// // Prints: 7, 6, 5, 4, 3, 2, 1, 0
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
  ///   - g: A seventh publisher.
  ///   - h: A eighth publisher.
  /// - Returns: A publisher that emits an element whenever any upstream publisher emits one.
  public func merge<B, C, D, E, F, G, H>(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
  ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
  where
    B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher,
    H: Publisher,
    Failure == B.Failure, Output == B.Output,
    B.Failure == C.Failure, B.Output == C.Output,
    C.Failure == D.Failure, C.Output == D.Output,
    D.Failure == E.Failure, D.Output == E.Output,
    E.Failure == F.Failure, E.Output == F.Output,
    F.Failure == G.Failure, F.Output == G.Output,
    G.Failure == H.Failure, G.Output == H.Output
  {
    Publishers.Merge8(self, b, c, d, e, f, g, h)
  }
}

extension Publishers {
  /// A publisher created by applying the merge function to eight upstream publishers.
  ///
  /// Behaves like ``Publishers/Merge``: shared demand, serial delivery, completion after every
  /// upstream publisher finished, and failure as soon as one fails.
  public struct Merge8<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
    G: Publisher, H: Publisher
  >: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output,
    B.Failure == C.Failure, B.Output == C.Output,
    C.Failure == D.Failure, C.Output == D.Output,
    D.Failure == E.Failure, D.Output == E.Output,
    E.Failure == F.Failure, E.Output == F.Output,
    F.Failure == G.Failure, F.Output == G.Output,
    G.Failure == H.Failure, G.Output == H.Output
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

    /// A seventh publisher to merge.
    public let g: G

    /// A eighth publisher to merge.
    public let h: H

    /// Creates a publisher that merges the elements of eight upstream publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
      self.h = h
    }

    /// Attaches the subscriber: it receives its subscription, then every upstream publisher is
    /// subscribed, in order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where H.Failure == S.Failure, H.Output == S.Input {
      let storage = MergeStorage(
        mode: .fixed(inputCount: 8), downstream: subscriber, name: "Merge8")
      subscriber.receive(subscription: storage)
      storage.subscribe(a, as: 0)
      storage.subscribe(b, as: 1)
      storage.subscribe(c, as: 2)
      storage.subscribe(d, as: 3)
      storage.subscribe(e, as: 4)
      storage.subscribe(f, as: 5)
      storage.subscribe(g, as: 6)
      storage.subscribe(h, as: 7)
    }
  }
}

extension Publishers.Merge8: Equatable
where
  A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable,
  H: Equatable
{}
