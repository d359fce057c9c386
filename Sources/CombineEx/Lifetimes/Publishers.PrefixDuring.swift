import CombineExCore

extension Publisher {
  /// Republishes elements until a lifetime ends, then finishes at once.
  ///
  /// When the lifetime ends, the upstream is cancelled and the subscriber receives `.finished`
  /// right away, on the thread that ended the lifetime (or, if a value is being delivered at
  /// that moment, right after that delivery). A lifetime that has already ended finishes the
  /// publisher as soon as it is subscribed.
  ///
  /// ```swift
  /// var token: Lifetime.Token? = Lifetime.Token()
  /// let lifetime = token!.lifetime
  /// let values = PassthroughSubject<Int, Never>()
  /// let cancellable = values.prefix(during: lifetime).sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// values.send(1)  // Prints: 1
  /// token = nil  // Prints: finished — the lifetime ended
  /// values.send(2)  // Prints nothing
  /// ```
  public func prefix(during lifetime: Lifetime) -> Publishers.PrefixDuring<Self> {
    Publishers.PrefixDuring(upstream: self, lifetime: lifetime)
  }
}

extension Publishers {
  /// A publisher that republishes elements until a ``Lifetime`` ends.
  public struct PrefixDuring<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The lifetime whose end finishes this publisher.
    public let lifetime: Lifetime

    /// Creates a publisher that republishes `upstream` until `lifetime` ends.
    public init(upstream: Upstream, lifetime: Lifetime) {
      self.upstream = upstream
      self.lifetime = lifetime
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = PrefixDuringSubscription(downstream: subscriber)
      // The lifetime first: if it already ended, the subscriber finishes at once and the
      // upstream's subscription is cancelled as it arrives, before it can deliver anything.
      inner.observe(lifetime)
      upstream.receive(subscriber: inner)
    }
  }
}

/// The subscription of `prefix(during:)`. The lifetime's end arrives from any thread, so it is
/// serialized with the upstream's deliveries: if it arrives during a delivery, the completion
/// is sent by the delivering thread right after it.
private final class PrefixDuringSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  LifetimeEndHandler, @unchecked Sendable
{
  // @unchecked Sendable: every mutable stored property is guarded by `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var downstream: Downstream?
  private var isDelivering = false
  private var endedDuringDelivery = false
  private var observation: (any Cancellable)?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  func observe(_ lifetime: Lifetime) {
    // Through a non-generic protocol, so that the @Sendable closure captures no generic type.
    let handler: any LifetimeEndHandler = self
    let observation = lifetime.observeEnded { [weak handler] in handler?.lifetimeEnded() }
    let keep = lock.withLock { () -> Bool in
      if case .terminated = status { return false }
      self.observation = observation
      return true
    }
    if !keep { observation?.cancel() }
  }

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return self.downstream
    }
    guard let downstream else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .subscribed = status else { return nil }
      isDelivering = true
      return self.downstream
    }
    guard let downstream else { return .none }
    let demand = downstream.receive(input)
    let finish = lock.withLock { () -> Bool in
      isDelivering = false
      return endedDuringDelivery
    }
    if finish { end() }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (downstream, observation) = lock.withLock { () -> (Downstream?, (any Cancellable)?) in
      guard case .subscribed = status else { return (nil, nil) }
      status = .terminated
      defer {
        self.downstream = nil
        self.observation = nil
      }
      return (self.downstream, self.observation)
    }
    observation?.cancel()
    downstream?.receive(completion: completion)
  }

  func lifetimeEnded() {
    let deferToDelivery = lock.withLock { () -> Bool in
      if isDelivering { endedDuringDelivery = true }
      return isDelivering
    }
    if !deferToDelivery { end() }
  }

  /// Cancels the upstream and finishes the downstream, once.
  private func end() {
    let (upstream, downstream, wasWaiting) = lock.withLock {
      () -> ((any Subscription)?, Downstream?, Bool) in
      switch status {
      case .terminated:
        return (nil, nil, false)
      case .awaitingSubscription:
        status = .terminated
        defer {
          self.downstream = nil
          observation = nil
        }
        return (nil, self.downstream, true)
      case .subscribed(let upstream):
        status = .terminated
        defer {
          self.downstream = nil
          observation = nil
        }
        return (upstream, self.downstream, false)
      }
    }
    upstream?.cancel()
    guard let downstream else { return }
    if wasWaiting {
      completeAtOnce(downstream, with: .finished)
    } else {
      downstream.receive(completion: .finished)
    }
  }

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.request(demand)
  }

  func cancel() {
    let (upstream, observation) = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
      defer {
        status = .terminated
        downstream = nil
        self.observation = nil
      }
      guard case .subscribed(let upstream) = status else { return (nil, self.observation) }
      return (upstream, self.observation)
    }
    observation?.cancel()
    upstream?.cancel()
  }
}

/// Something that reacts to the end of a ``Lifetime``.
private protocol LifetimeEndHandler: AnyObject, Sendable {
  func lifetimeEnded()
}
