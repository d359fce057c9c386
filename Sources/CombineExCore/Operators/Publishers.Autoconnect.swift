extension ConnectablePublisher {
  /// Automates the process of connecting or disconnecting from this connectable publisher.
  ///
  /// The first subscriber connects the upstream (after it has been attached, so it sees the
  /// first values); when the last subscriber cancels (or receives its completion), the
  /// connection is cancelled. A later subscriber connects again.
  ///
  /// ```swift
  /// let cancellable = Timer.publish(every: 1, on: .main, in: .common)
  ///   .autoconnect()
  ///   .sink { _ in print("tick") }
  /// // Prints: tick (every second, while the main run loop runs)
  /// cancellable.cancel()  // The last subscriber is gone: the timer stops.
  /// ```
  ///
  /// - Returns: A publisher which automatically connects to its upstream connectable
  ///   publisher.
  public func autoconnect() -> Publishers.Autoconnect<Self> {
    Publishers.Autoconnect(upstream: self)
  }
}

extension Publishers {
  /// A publisher that automatically connects to an upstream connectable publisher.
  ///
  /// This publisher calls ``ConnectablePublisher/connect()`` on the upstream when the first
  /// downstream subscriber attaches, and cancels the connection when the last one cancels or
  /// completes. It is a class, as in Combine: its copies share the connection.
  public class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
    // @unchecked Sendable: `subscriberCount` and `connection` are guarded by `lock`; `upstream`
    // is a constant.
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    private let lock = Lock()
    private var subscriberCount = 0
    private var connection = AutoconnectState.disconnected

    /// Creates a publisher that automatically connects to an upstream connectable publisher.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber to the upstream, and connects the upstream if it is the first.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let shouldConnect = lock.withLock { () -> Bool in
        subscriberCount += 1
        switch connection {
        case .disconnected:
          connection = .connecting(disconnectRequested: false)
          return true
        case .connecting(disconnectRequested: true):
          // The previous last subscriber left while connecting; this one keeps it.
          connection = .connecting(disconnectRequested: false)
          return false
        case .connecting, .connected:
          return false
        }
      }
      upstream.receive(
        subscriber: AutoconnectSubscription(downstream: subscriber) { [self] in subscriberLeft() })
      guard shouldConnect else { return }
      let made = upstream.connect()
      let keep = lock.withLock { () -> Bool in
        guard case .connecting(let disconnectRequested) = connection else { return false }
        if disconnectRequested {
          connection = .disconnected
          return false
        }
        connection = .connected(made)
        return true
      }
      if !keep { made.cancel() }
    }

    /// One subscriber cancelled or completed: the last one disconnects.
    private func subscriberLeft() {
      let toCancel = lock.withLock { () -> (any Cancellable)? in
        subscriberCount -= 1
        guard subscriberCount == 0 else { return nil }
        switch connection {
        case .connected(let made):
          connection = .disconnected
          return made
        case .connecting:
          connection = .connecting(disconnectRequested: true)
          return nil
        case .disconnected:
          return nil
        }
      }
      toCancel?.cancel()
    }
  }
}

/// The connection of ``Publishers/Autoconnect``.
enum AutoconnectState {
  case disconnected
  /// `connect()` is running; if the last subscriber left meanwhile, the connection is
  /// cancelled as soon as it returns.
  case connecting(disconnectRequested: Bool)
  case connected(any Cancellable)
}

/// Wraps each subscriber of ``Publishers/Autoconnect`` to learn when it leaves (cancel or
/// completion), once.
final class AutoconnectSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `status`, `downstream` and `onLeave` are guarded by `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var downstream: Downstream?
  private var onLeave: (() -> Void)?

  init(downstream: Downstream, onLeave: @escaping () -> Void) {
    self.downstream = downstream
    self.onLeave = onLeave
  }

  var description: String { "Autoconnect" }

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return self.downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ status.isSubscribed ? self.downstream : nil }) else {
      return .none
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (downstream, onLeave) = lock.withLock { () -> (Downstream?, (() -> Void)?) in
      guard status.isSubscribed else { return (nil, nil) }
      status = .terminated
      defer {
        self.downstream = nil
        self.onLeave = nil
      }
      return (self.downstream, self.onLeave)
    }
    downstream?.receive(completion: completion)
    onLeave?()
  }

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.request(demand)
  }

  func cancel() {
    let (upstream, onLeave) = lock.withLock { () -> ((any Subscription)?, (() -> Void)?) in
      guard case .subscribed(let upstream) = status else { return (nil, nil) }
      status = .terminated
      downstream = nil
      defer { self.onLeave = nil }
      return (upstream, self.onLeave)
    }
    upstream?.cancel()
    onLeave?()
  }
}
