extension Publisher {
  /// Combines elements from this publisher with those from another publisher, delivering an
  /// interleaved sequence of elements.
  ///
  /// ```swift
  /// let letters = PassthroughSubject<String, Never>()
  /// let digits = PassthroughSubject<String, Never>()
  /// let cancellable = letters.merge(with: digits).sink { print($0) }
  /// letters.send("a")
  /// digits.send("1")
  /// letters.send("b")
  /// // Prints: a, 1, b
  /// ```
  ///
  /// The result finishes when every publisher has finished, and fails as soon as one of them
  /// fails (cancelling the others). Each publisher is asked for no more than the downstream
  /// asked for; delivery is serial even when the publishers send from several threads.
  /// See ``Publishers/Merge`` for the details.
  ///
  /// To merge with a publisher of the same type, `merge(with:)` returns a
  /// ``Publishers/MergeMany`` instead.
  ///
  /// - Parameters:
  ///   - other: Another publisher.
  /// - Returns: A publisher that emits an element whenever any upstream publisher emits one.
  public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
  where Failure == P.Failure, Output == P.Output {
    Publishers.Merge(self, other)
  }
}

extension Publishers {
  /// A publisher created by applying the merge function to two upstream publishers.
  ///
  /// The merged publisher subscribes to every upstream publisher (after handing the downstream
  /// its subscription) and republishes their elements as they arrive:
  /// - **Demand.** The downstream's demand is shared: each upstream publisher is asked for what
  ///   the downstream asked for and has not received (minus the values already waiting), never
  ///   more, so an upstream publisher is never asked for more than the downstream asked for
  ///   overall. Values that arrive beyond the downstream's current demand wait, in arrival
  ///   order, in a buffer bounded by what the upstream publishers were asked for.
  /// - **Completion.** The merged publisher finishes when every upstream publisher has finished
  ///   and every waiting value was delivered. The first failure cancels the other upstream
  ///   publishers, drops the waiting values and is delivered at once; nothing follows it.
  /// - **Cancellation** cancels every upstream publisher and releases the downstream.
  /// - **Threading.** Upstream publishers may send from any threads at once: the downstream
  ///   receives one value at a time, and a sender never waits for another (a value sent while
  ///   another is being delivered is queued, and the delivering thread delivers it). A value
  ///   sent re-entrantly, from inside the downstream's `receive`, is delivered after it returns.
  public struct Merge<A: Publisher, B: Publisher>: Publisher
  where
    A.Failure == B.Failure, A.Output == B.Output
  {
    /// The kind of values this publisher publishes: the upstream publishers'.
    public typealias Output = A.Output

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = A.Failure

    /// A publisher to merge.
    public let a: A

    /// A second publisher to merge.
    public let b: B

    /// Creates a publisher that merges the elements of two upstream publishers.
    @inlinable
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches the subscriber: it receives its subscription, then every upstream publisher is
    /// subscribed, in order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where B.Failure == S.Failure, B.Output == S.Input {
      let storage = MergeStorage(
        mode: .fixed(inputCount: 2), downstream: subscriber, name: "Merge")
      subscriber.receive(subscription: storage)
      storage.subscribe(a, as: 0)
      storage.subscribe(b, as: 1)
    }

    /// Merges this publisher's two upstream publishers and one more into one
    /// `Publishers.Merge3`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge(Just(1), Just(2))
    /// let cancellable = merged
    ///   .merge(with: Just(3))  // one Publishers.Merge3
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3
    /// ```
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
    where B.Failure == P.Failure, B.Output == P.Output {
      Publishers.Merge3(a, b, other)
    }

    /// Merges this publisher's two upstream publishers and two more into one
    /// `Publishers.Merge4`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge(Just(1), Just(2))
    /// let cancellable = merged
    ///   .merge(with: Just(3), Just(4))  // one Publishers.Merge4
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    public func merge<Z, Y>(
      with z: Z, _ y: Y
    ) -> Publishers.Merge4<A, B, Z, Y>
    where
      Z: Publisher, Y: Publisher,
      B.Failure == Z.Failure, B.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output
    {
      Publishers.Merge4(a, b, z, y)
    }

    /// Merges this publisher's two upstream publishers and three more into one
    /// `Publishers.Merge5`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge(Just(1), Just(2))
    /// let cancellable = merged
    ///   .merge(with: Just(3), Just(4), Just(5))  // one Publishers.Merge5
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5
    /// ```
    public func merge<Z, Y, X>(
      with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge5<A, B, Z, Y, X>
    where
      Z: Publisher, Y: Publisher, X: Publisher,
      B.Failure == Z.Failure, B.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output,
      Y.Failure == X.Failure, Y.Output == X.Output
    {
      Publishers.Merge5(a, b, z, y, x)
    }

    /// Merges this publisher's two upstream publishers and four more into one
    /// `Publishers.Merge6`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge(Just(1), Just(2))
    /// let cancellable = merged
    ///   .merge(with: Just(3), Just(4), Just(5), Just(6))  // one Publishers.Merge6
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6
    /// ```
    public func merge<Z, Y, X, W>(
      with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge6<A, B, Z, Y, X, W>
    where
      Z: Publisher, Y: Publisher, X: Publisher, W: Publisher,
      B.Failure == Z.Failure, B.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output,
      Y.Failure == X.Failure, Y.Output == X.Output,
      X.Failure == W.Failure, X.Output == W.Output
    {
      Publishers.Merge6(a, b, z, y, x, w)
    }

    /// Merges this publisher's two upstream publishers and five more into one
    /// `Publishers.Merge7`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge(Just(1), Just(2))
    /// let cancellable = merged
    ///   .merge(with: Just(3), Just(4), Just(5), Just(6), Just(7))  // one Publishers.Merge7
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7
    /// ```
    public func merge<Z, Y, X, W, V>(
      with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
    where
      Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher,
      B.Failure == Z.Failure, B.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output,
      Y.Failure == X.Failure, Y.Output == X.Output,
      X.Failure == W.Failure, X.Output == W.Output,
      W.Failure == V.Failure, W.Output == V.Output
    {
      Publishers.Merge7(a, b, z, y, x, w, v)
    }

    /// Merges this publisher's two upstream publishers and six more into one
    /// `Publishers.Merge8`.
    ///
    /// ```swift
    /// let merged = Publishers.Merge(Just(1), Just(2))
    /// let cancellable = merged
    ///   .merge(with: Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))  // one Publishers.Merge8
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7, 8
    /// ```
    public func merge<Z, Y, X, W, V, U>(
      with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
    ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
    where
      Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher,
      B.Failure == Z.Failure, B.Output == Z.Output,
      Z.Failure == Y.Failure, Z.Output == Y.Output,
      Y.Failure == X.Failure, Y.Output == X.Output,
      X.Failure == W.Failure, X.Output == W.Output,
      W.Failure == V.Failure, W.Output == V.Output,
      V.Failure == U.Failure, V.Output == U.Output
    {
      Publishers.Merge8(a, b, z, y, x, w, v, u)
    }
  }
}

extension Publishers.Merge: Equatable
where A: Equatable, B: Equatable {}
