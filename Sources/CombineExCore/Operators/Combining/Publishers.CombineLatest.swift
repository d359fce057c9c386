extension Publisher {
  /// Subscribes to an additional publisher and publishes a tuple upon receiving output from
  /// either publisher.
  ///
  /// Nothing is published until both publishers have published a value; from then on, every
  /// value of either publisher publishes the latest value of each.
  ///
  /// ```swift
  /// let temperature = PassthroughSubject<Int, Never>()
  /// let unit = PassthroughSubject<String, Never>()
  /// let cancellable = temperature.combineLatest(unit).sink { print("\($0.0)\($0.1)") }
  /// temperature.send(20)  // nothing yet: `unit` has no value
  /// unit.send("°C")
  /// temperature.send(21)
  /// unit.send("°F")
  /// // Prints: 20°C, 21°C, 21°F
  /// ```
  ///
  /// Requests pass through to both publishers. A value that arrives while the subscriber has
  /// no demand only replaces its publisher's latest value: it is not delivered later. The
  /// result finishes once both publishers have finished (so never if one of them never
  /// finishes, and without a value if one finished without publishing any), and fails as soon
  /// as either fails, cancelling the other. See ``Publishers/CombineLatest`` for the details.
  ///
  /// - Parameter other: Another publisher to combine with this one.
  /// - Returns: A publisher that receives and combines elements from this and another
  ///   publisher.
  public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
  where Failure == P.Failure {
    Publishers.CombineLatest(self, other)
  }

  /// Subscribes to an additional publisher and invokes a closure upon receiving output from
  /// either publisher.
  ///
  /// ```swift
  /// let price = PassthroughSubject<Double, Never>()
  /// let quantity = PassthroughSubject<Int, Never>()
  /// let cancellable = price.combineLatest(quantity) { $0 * Double($1) }
  ///   .sink { print($0) }
  /// price.send(2.5)
  /// quantity.send(2)
  /// quantity.send(4)
  /// // Prints: 5.0, 10.0
  /// ```
  ///
  /// The result is `combineLatest(other).map(transform)`: see ``combineLatest(_:)``.
  ///
  /// - Parameters:
  ///   - other: Another publisher to combine with this one.
  ///   - transform: A closure that receives the most-recent value from each publisher and
  ///     returns a new value to publish.
  /// - Returns: A publisher that receives and combines elements from this and another
  ///   publisher.
  public func combineLatest<P: Publisher, T>(
    _ other: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
  where Failure == P.Failure {
    Publishers.Map(upstream: Publishers.CombineLatest(self, other), transform: transform)
  }
}

extension Publishers {
  /// A publisher that receives and combines the latest elements from two publishers.
  ///
  /// The downstream receives its subscription first; then `a` and `b` are subscribed, in
  /// order (once the combination is over, by a synchronous failure or a cancel, the rest are
  /// not subscribed).
  /// - **Values.** Nothing is published until every publisher has published a value. From then
  ///   on, each value that arrives while the downstream has demand publishes a tuple of the
  ///   latest value of every publisher.
  /// - **Demand.** As in Combine, the downstream's requests pass through to every publisher, and
  ///   each publisher's latest value is kept in a buffer of one: a value that arrives while the
  ///   downstream has no demand replaces the latest value of its publisher without publishing
  ///   anything, and is not published later when demand arrives. The downstream never
  ///   receives more than it asked for.
  /// - **Completion.** The result finishes once every publisher has finished (after the tuples
  ///   still being delivered), even when a publisher finished without a value (nothing can be
  ///   published then, but, as in Combine, the others are not cancelled). The first failure
  ///   cancels the other publishers and is delivered at once; nothing follows it.
  /// - **Cancellation** cancels every publisher and releases the downstream.
  /// - **Threading.** The publishers may send from any threads at once: the downstream
  ///   receives one tuple at a time, in the order the values arrived, and a sender never waits
  ///   for another (a tuple made while another is being delivered is queued, and the
  ///   delivering thread delivers it). A value sent from inside the downstream's `receive`
  ///   (for example into one of the combined subjects) is delivered after it returns.
  public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
  where A.Failure == B.Failure {
    /// The kind of values this publisher publishes: a tuple of the latest value of each
    /// publisher.
    public typealias Output = (A.Output, B.Output)

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = A.Failure

    /// A publisher to combine.
    public let a: A

    /// A second publisher to combine.
    public let b: B

    /// Creates a publisher that receives and combines the latest elements from two
    /// publishers.
    @inlinable
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches the subscriber: it receives its subscription, then every upstream publisher is
    /// subscribed, in order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where B.Failure == S.Failure, S.Input == (A.Output, B.Output) {
      let storage = CombiningStorage<LatestValues2<A.Output, B.Output>, S>(
        downstream: subscriber, name: "CombineLatest")
      storage.start()
      storage.subscribe(a, at: 0) { $0.a = $1 }
      storage.subscribe(b, at: 1) { $0.b = $1 }
    }
  }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
