extension Publisher {
  /// Omits the specified number of elements before republishing subsequent elements.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .dropFirst(2)
  ///   .sink { print($0) }
  /// for value in 1...5 { subject.send(value) }
  /// // Prints: 3, 4, 5
  /// ```
  ///
  /// Like Combine, the operator asks the upstream for the elements it will drop on top of the
  /// subscriber's demand: as soon as it is subscribed it requests `count` elements, and it
  /// passes every later request through unchanged. A negative `count` stops the program when
  /// the publisher is subscribed.
  ///
  /// - Parameter count: The number of elements to omit. The default is `1`.
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}

extension Publishers {
  /// A publisher that omits a specified number of elements before republishing later elements.
  public struct Drop<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The number of elements to drop.
    public let count: Int

    /// Creates a publisher that omits the first `count` elements of `upstream`.
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    /// Attaches the subscriber. As in Combine, the subscriber receives its subscription before
    /// the upstream is subscribed; demand it requests meanwhile is kept for the upstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      checkAPI(
        count >= 0,
        "dropFirst(\(count)): the number of elements to drop cannot be negative.")
      let drop = DropOperator(count: count, downstream: subscriber)
      subscriber.receive(subscription: drop)
      upstream.receive(subscriber: drop)
    }
  }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

/// The subscription of `Publishers.Drop`. It is handed to the downstream first, so it keeps the
/// demand requested before the upstream's subscription arrives; then it requests that demand
/// plus the number of elements to drop, and swallows that many elements without asking for
/// them again.
// @unchecked Sendable: `status`, `downstream` and `pendingDemand` are guarded by `lock`;
// `remaining` is touched only by upstream events, which are serial.
final class DropOperator<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var downstream: Downstream?
  /// Demand requested by the downstream before the upstream's subscription arrived.
  private var pendingDemand = Subscribers.Demand.none
  /// Elements still to drop.
  private var remaining: Int

  init(count: Int, downstream: Downstream) {
    self.remaining = count
    self.downstream = downstream
  }

  var description: String { "Drop" }

  // MARK: Subscriber (upstream side)

  func receive(subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      defer { pendingDemand = .none }
      return pendingDemand + remaining
    }
    guard let demand else {
      subscription.cancel()
      return
    }
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ status.isSubscribed ? self.downstream : nil }) else {
      return .none
    }
    if remaining > 0 {
      // Already requested for dropping: no demand goes back.
      remaining -= 1
      return .none
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminated
      defer { self.downstream = nil }
      return self.downstream
    }
    downstream?.receive(completion: completion)
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      switch status {
      case .awaitingSubscription:
        pendingDemand += demand
        return nil
      case .subscribed(let upstream):
        return upstream
      case .terminated:
        return nil
      }
    }
    upstream?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        // A cancel before the upstream's subscription arrives also ends it: that subscription
        // is cancelled as soon as it comes.
        status = .terminated
        downstream = nil
      }
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.cancel()
  }
}
