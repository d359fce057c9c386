extension Publisher where Output: Publisher, Output.Failure == Failure {
  /// Republishes the elements of the most recent publisher the upstream sent, cancelling the
  /// previous one.
  ///
  /// ```swift
  /// let searches = PassthroughSubject<PassthroughSubject<String, Never>, Never>()
  /// let first = PassthroughSubject<String, Never>()
  /// let second = PassthroughSubject<String, Never>()
  /// let cancellable = searches.switchToLatest().sink { print($0) }
  /// searches.send(first)
  /// first.send("a")
  /// searches.send(second)  // cancels the subscription to `first`
  /// first.send("ignored")
  /// second.send("b")
  /// // Prints: a, b
  /// ```
  ///
  /// The upstream is asked for every element. Each new inner publisher is subscribed after the
  /// previous one was cancelled, and inherits the downstream's outstanding demand. The
  /// publisher finishes once the upstream and the current inner publisher have both finished;
  /// a failure of either cancels the other and is delivered at once. Delivery to the
  /// downstream is serial, even when an old and a new inner publisher send from different
  /// threads around a switch.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Failure == Never {
  /// Republishes the elements of the most recent (possibly failing) publisher this
  /// never-failing upstream sent, cancelling the previous one.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let requests = PassthroughSubject<PassthroughSubject<Int, Offline>, Never>()
  /// let response = PassthroughSubject<Int, Offline>()
  /// let cancellable = requests.switchToLatest()
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// requests.send(response)
  /// response.send(1)
  /// response.send(completion: .failure(Offline()))
  /// // Prints: 1, failure(Offline())
  /// ```
  ///
  /// Otherwise like ``Publisher/switchToLatest()-7l9oi``.
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Output, Publishers.SetFailureType<Self, Output.Failure>
    >
  {
    Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
  }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
  /// Republishes the elements of the most recent publisher the upstream sent, cancelling the
  /// previous one; neither the upstream nor the inner publishers fail.
  ///
  /// ```swift
  /// let pages = PassthroughSubject<Just<String>, Never>()
  /// let cancellable = pages.switchToLatest().sink { print($0) }
  /// pages.send(Just("home"))
  /// pages.send(Just("settings"))
  /// // Prints: home, settings
  /// ```
  ///
  /// Otherwise like ``Publisher/switchToLatest()-7l9oi``.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
  /// Republishes the elements of the most recent never-failing publisher this (possibly
  /// failing) upstream sent, cancelling the previous one.
  ///
  /// ```swift
  /// let pages = PassthroughSubject<Just<Int>, any Error>()
  /// let cancellable = pages.switchToLatest()
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// pages.send(Just(1))
  /// pages.send(completion: .finished)
  /// // Prints: 1, finished
  /// ```
  ///
  /// Otherwise like ``Publisher/switchToLatest()-7l9oi``.
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<Output, Failure>,
      Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    >
  {
    Publishers.SwitchToLatest(upstream: map { Publishers.SetFailureType(upstream: $0) })
  }
}

extension Publishers {
  /// A publisher that republishes the elements of the most recent publisher its upstream sent.
  ///
  /// See ``Publisher/switchToLatest()-7l9oi``.
  public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
  where P == Upstream.Output, P.Failure == Upstream.Failure {
    /// The kind of values this publisher publishes: the inner publishers'.
    public typealias Output = P.Output

    /// The kind of errors this publisher might publish: the inner publishers', which is also
    /// the upstream's.
    public typealias Failure = P.Failure

    /// The publisher from which this publisher receives publishers.
    public let upstream: Upstream

    /// Creates a publisher that republishes the elements of the most recent publisher
    /// `upstream` sent.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber: it receives its subscription first, then the upstream is
    /// subscribed.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      guard let subscription = subscribing(subscriber) else { return }
      upstream.receive(subscriber: subscription)
    }

    /// Hands `subscriber` its subscription, which is also the subscriber to attach upstream,
    /// and returns it; nil if `subscriber` cancelled meanwhile.
    @inlinable
    func subscribing<S: Subscriber>(_ subscriber: S) -> SwitchToLatestSubscription<Upstream, S>?
    where S.Input == Output, S.Failure == Failure {
      let storage = MergeStorage(
        mode: .switchToLatest, downstream: subscriber, name: "SwitchToLatest")
      let subscription = SwitchToLatestSubscription<Upstream, S>(storage: storage)
      subscriber.receive(subscription: subscription)
      return storage.isActive ? subscription : nil
    }
  }
}

extension Publishers.SwitchToLatest: OperatorReportingItsSubscriber {
  /// `receive(subscriber:)`, subscribing upstream through `subscribe(_:)`.
  func receiveReportingItsSubscriber<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    guard let subscription = subscribing(subscriber) else { return }
    upstream.subscribe(subscription)
  }
}
