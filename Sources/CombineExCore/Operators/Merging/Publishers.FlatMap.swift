extension Publisher {
  /// Transforms each element from the upstream publisher into a new publisher, and republishes
  /// the elements of all of them, up to `maxPublishers` of them at once.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .flatMap { value in [value, value * 10].publisher }
  ///   .sink { print($0) }
  /// // Prints: 1, 10, 2, 20, 3, 30
  /// ```
  ///
  /// The upstream is asked for `maxPublishers` elements, and for one more each time one of the
  /// inner publishers finishes, so `flatMap(maxPublishers: .max(1))` subscribes to one inner
  /// publisher at a time, in order: it concatenates them. The downstream's demand is shared
  /// among the inner publishers: none of them is asked for more than the downstream asked for,
  /// and values an inner publisher sends beyond the downstream's current demand wait in a
  /// buffer (at most what it was asked for). The publisher finishes when the upstream and every
  /// inner publisher have finished and every value was delivered; the first failure, of the
  /// upstream or of any inner publisher, cancels everything else and is delivered at once.
  /// Inner publishers may send from any threads at once: delivery to the downstream is serial.
  ///
  /// - Parameters:
  ///   - maxPublishers: The maximum number of inner publishers subscribed at once
  ///     (`.unlimited` by default).
  ///   - transform: A closure that turns an element into a publisher.
  /// - Returns: A publisher of the elements of every publisher `transform` returns.
  public func flatMap<T, P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher where Failure == Never {
  /// Transforms each element from this never-failing publisher into a new publisher that may
  /// fail, and republishes the elements of all of them, up to `maxPublishers` at once.
  ///
  /// ```swift
  /// struct NotFound: Error {}
  /// let cancellable = [1, 2].publisher
  ///   .flatMap { value -> AnyPublisher<Int, NotFound> in
  ///     value == 2
  ///       ? Fail(error: NotFound()).eraseToAnyPublisher()
  ///       : Just(value).setFailureType(to: NotFound.self).eraseToAnyPublisher()
  ///   }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, failure(NotFound())
  /// ```
  ///
  /// The upstream's (impossible) failure is presented as the inner publishers' failure type;
  /// otherwise this is ``Publisher/flatMap(maxPublishers:_:)-74854``.
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
    Publishers.FlatMap(
      upstream: Publishers.SetFailureType(upstream: self),
      maxPublishers: maxPublishers, transform: transform)
  }

  /// Transforms each element from this never-failing publisher into a new never-failing
  /// publisher, and republishes the elements of all of them, up to `maxPublishers` at once.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher
  ///   .flatMap { Just($0 * 100) }
  ///   .sink { print($0) }
  /// // Prints: 100, 200
  /// ```
  ///
  /// See ``Publisher/flatMap(maxPublishers:_:)-74854`` for demand, completion and threading.
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher {
  /// Transforms each element into a new never-failing publisher, and republishes the elements
  /// of all of them, up to `maxPublishers` at once.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, any Error>()
  /// let cancellable = subject
  ///   .flatMap { Just($0 + 1) }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// subject.send(1)
  /// subject.send(completion: .finished)
  /// // Prints: 2, finished
  /// ```
  ///
  /// The inner publishers' (impossible) failure is presented as the upstream's failure type;
  /// otherwise this is ``Publisher/flatMap(maxPublishers:_:)-74854``.
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited,
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
      Publishers.SetFailureType(upstream: transform($0))
    }
  }
}

extension Publishers {
  /// A publisher that transforms elements from an upstream publisher into new publishers, and
  /// republishes the elements of all of them.
  ///
  /// See ``Publisher/flatMap(maxPublishers:_:)-74854``.
  public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
  where NewPublisher.Failure == Upstream.Failure {
    /// The kind of values this publisher publishes: the inner publishers'.
    public typealias Output = NewPublisher.Output

    /// The kind of errors this publisher might publish: the upstream's, which is also the
    /// inner publishers'.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of inner publishers subscribed at once.
    public let maxPublishers: Subscribers.Demand

    /// The closure that turns each upstream element into a publisher.
    public let transform: (Upstream.Output) -> NewPublisher

    /// Creates a publisher that turns the elements of `upstream` into publishers with
    /// `transform`, and subscribes to at most `maxPublishers` of them at once.
    @inlinable
    public init(
      upstream: Upstream, maxPublishers: Subscribers.Demand,
      transform: @escaping (Upstream.Output) -> NewPublisher
    ) {
      self.upstream = upstream
      self.maxPublishers = maxPublishers
      self.transform = transform
    }

    /// Attaches the subscriber: it receives its subscription first, then the upstream is
    /// subscribed.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      guard let upstreamSubscriber = subscribing(subscriber) else { return }
      upstream.receive(subscriber: upstreamSubscriber)
    }

    /// Hands `subscriber` its subscription, and returns the subscriber to attach upstream; nil
    /// if `subscriber` cancelled meanwhile.
    @inlinable
    func subscribing<S: Subscriber>(_ subscriber: S) -> MergeUpstream<Upstream, NewPublisher, S>?
    where S.Input == Output, S.Failure == Failure {
      let storage = MergeStorage(
        mode: .flatMap(maxPublishers: maxPublishers), downstream: subscriber, name: "FlatMap")
      subscriber.receive(subscription: storage)
      guard storage.isActive else { return nil }
      return MergeUpstream(storage: storage, transform: transform)
    }
  }
}

extension Publishers.FlatMap: OperatorReportingItsSubscriber {
  /// `receive(subscriber:)`, subscribing upstream through `subscribe(_:)`.
  func receiveReportingItsSubscriber<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    guard let upstreamSubscriber = subscribing(subscriber) else { return }
    upstream.subscribe(upstreamSubscriber)
  }
}
