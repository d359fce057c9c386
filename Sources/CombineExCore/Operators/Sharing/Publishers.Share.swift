extension Publisher {
  /// Shares the output of an upstream publisher with multiple subscribers.
  ///
  /// The upstream is subscribed once, when the first subscriber attaches, and every
  /// subscriber receives the same values; a subscriber that attaches later receives the
  /// values sent from then on (there is no replay).
  ///
  /// ```swift
  /// let ticks = PassthroughSubject<Int, Never>()
  /// var subscriptions = 0
  /// let shared = ticks
  ///   .handleEvents(receiveSubscription: { _ in subscriptions += 1 })
  ///   .share()
  /// let first = shared.sink { print("first", $0) }
  /// ticks.send(1)
  /// let second = shared.sink { print("second", $0) }
  /// ticks.send(2)
  /// print(subscriptions)
  /// // Prints: first 1, first 2, second 2, 1
  /// ```
  ///
  /// `Publishers.Share` is `multicast(subject: PassthroughSubject())` with an implicit
  /// ``ConnectablePublisher/autoconnect()``, and a class: every copy is the same shared
  /// publisher. See ``Publishers/Share`` for when the upstream is subscribed and cancelled.
  ///
  /// - Returns: A class instance that shares elements received from its upstream to multiple
  ///   subscribers.
  public func share() -> Publishers.Share<Self> {
    Publishers.Share(upstream: self)
  }
}

extension Publishers {
  /// A publisher that shares the output of an upstream publisher with multiple subscribers.
  ///
  /// Subscribers attach to one `PassthroughSubject` (a ``Publishers/Multicast``), which is
  /// connected to the upstream automatically (``Publishers/Autoconnect``):
  /// - **Connecting.** The first subscriber attaches, then the upstream is subscribed, once,
  ///   with unlimited demand; later subscribers share that subscription and receive the values
  ///   sent after they attached (a subscriber without demand misses values, as with a
  ///   subject).
  /// - **Completion** reaches every attached subscriber. A subscriber that attaches after the
  ///   upstream completed receives only the completion; the upstream is not subscribed again.
  /// - **Disconnecting.** When the last subscriber cancels (or completes), the upstream
  ///   subscription is cancelled. A subscriber that attaches after that (the upstream never
  ///   having completed) subscribes to the upstream again, as in Combine.
  /// - **Threading.** Subscribers may attach and cancel on any threads, and the upstream may
  ///   send from any thread: each subscriber receives one call at a time.
  ///
  /// A class, as in Combine, so that the same instance can be handed to many subscribers;
  /// two `Share` values are equal when they are the same instance.
  public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
    // @unchecked Sendable: both stored properties are constants, and the autoconnected
    // multicast is thread-safe.
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    @usableFromInline
    let inner:
      Publishers.Autoconnect<Publishers.Multicast<Upstream, PassthroughSubject<Output, Failure>>>

    /// Creates a publisher that shares the output of an upstream publisher with multiple
    /// subscribers.
    public init(upstream: Upstream) {
      self.upstream = upstream
      inner = Publishers.Autoconnect(
        upstream: Publishers.Multicast(upstream: upstream) { PassthroughSubject() })
    }

    /// Attaches the subscriber to the shared subject, and subscribes to the upstream if it is
    /// the first (or the first since the last one left).
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      inner.receive(subscriber: subscriber)
    }

    /// Returns whether the two publishers are the same instance.
    public static func == (lhs: Publishers.Share<Upstream>, rhs: Publishers.Share<Upstream>)
      -> Bool
    {
      lhs === rhs
    }
  }
}
