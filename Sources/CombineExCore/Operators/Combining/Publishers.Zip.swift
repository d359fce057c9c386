extension Publisher {
  /// Combines elements from another publisher and delivers pairs of elements as tuples.
  ///
  /// The first value of each publisher makes the first pair, the second values the second
  /// pair, and so on: a value waits until the other publisher has sent a value to pair it with.
  ///
  /// ```swift
  /// let names = PassthroughSubject<String, Never>()
  /// let scores = PassthroughSubject<Int, Never>()
  /// let cancellable = names.zip(scores).sink { print("\($0.0): \($0.1)") }
  /// names.send("Ana")
  /// names.send("Bo")
  /// scores.send(3)
  /// scores.send(5)
  /// // Prints: Ana: 3, Bo: 5
  /// ```
  ///
  /// Requests pass through to both publishers, so values wait only within what the subscriber
  /// asked for. The result finishes as soon as one publisher has finished and none of its
  /// values is left waiting (no pair can be made any more; the other publisher is cancelled),
  /// and fails as soon as either fails. See ``Publishers/Zip`` for the details.
  ///
  /// - Parameter other: Another publisher.
  /// - Returns: A publisher that emits pairs of elements from the upstream publishers as
  ///   tuples.
  public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P>
  where Failure == P.Failure {
    Publishers.Zip(self, other)
  }

  /// Combines elements from another publisher and delivers a transformed output.
  ///
  /// ```swift
  /// let names = PassthroughSubject<String, Never>()
  /// let scores = PassthroughSubject<Int, Never>()
  /// let cancellable = names.zip(scores) { "\($0) scored \($1)" }.sink { print($0) }
  /// names.send("Ana")
  /// scores.send(3)
  /// // Prints: Ana scored 3
  /// ```
  ///
  /// The result is `zip(other).map(transform)`: see ``zip(_:)``.
  ///
  /// - Parameters:
  ///   - other: Another publisher.
  ///   - transform: A closure that receives the most-recent value from each publisher and
  ///     returns a new value to publish.
  /// - Returns: A publisher that uses the `transform` closure to emit new elements, produced
  ///   by combining the most recent value from two upstream publishers.
  public func zip<P: Publisher, T>(
    _ other: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.Zip<Self, P>, T>
  where Failure == P.Failure {
    Publishers.Map(upstream: Publishers.Zip(self, other), transform: transform)
  }
}

extension Publishers {
  /// A publisher created by applying the zip function to two upstream publishers.
  ///
  /// The downstream receives its subscription first; then `a` and `b` are subscribed, in
  /// order (once the zip is over, by a synchronous completion or a cancel, the rest are not
  /// subscribed).
  /// - **Values.** The n-th value of every publisher makes the n-th tuple. A value waits, in
  ///   arrival order, until every other publisher has sent a value to go with it and the
  ///   downstream has demand.
  /// - **Demand.** As in Combine, the downstream's requests pass through to every publisher.
  ///   Since each tuple uses one value of each publisher, the values waiting for a publisher
  ///   plus what it still owes never exceed what the downstream asked for and has not
  ///   received: waiting is bounded by the demand, and no publisher is asked for a value the
  ///   downstream does not need.
  /// - **Completion.** The result finishes (after the tuples still being delivered) as soon as
  ///   a publisher has finished and none of its values is left waiting, since no tuple can be
  ///   made any more: the other publishers are cancelled and their waiting values dropped. A
  ///   publisher that finishes with values still waiting ends the zip once they are used. The
  ///   first failure cancels the other publishers and is delivered at once; nothing follows
  ///   it.
  /// - **Cancellation** cancels every publisher and releases the downstream.
  /// - **Threading.** The publishers may send from any threads at once: the downstream
  ///   receives one tuple at a time, in order, and a sender never waits for another (a tuple
  ///   completed while another is being delivered is queued, and the delivering thread
  ///   delivers it). A value sent from inside the downstream's `receive` is delivered after it
  ///   returns.
  public struct Zip<A: Publisher, B: Publisher>: Publisher
  where A.Failure == B.Failure {
    /// The kind of values this publisher publishes: a tuple of one value of each publisher.
    public typealias Output = (A.Output, B.Output)

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = A.Failure

    /// A publisher to zip.
    public let a: A

    /// A second publisher to zip.
    public let b: B

    /// Creates a publisher that applies the zip function to two upstream publishers.
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
      let storage = CombiningStorage<ZipQueues2<A.Output, B.Output>, S>(
        downstream: subscriber, name: "Zip")
      storage.start()
      storage.subscribe(a, at: 0) { $0.a.append($1) }
      storage.subscribe(b, at: 1) { $0.b.append($1) }
    }
  }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
