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
      let logic = AutoconnectLogic<Output, Failure> { [self] in subscriberLeft() }
      upstream.receive(subscriber: OperatorDriver(logic, downstream: subscriber))
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

/// The subscriptions of ``Publishers/Autoconnect``: pass everything through, and tell the
/// autoconnect when the subscriber leaves (completion or cancel), once.
struct AutoconnectLogic<Input, Failure: Error>: OperatorLogic {
  typealias UpstreamFailure = Failure
  /// Called once, when the subscriber leaves.
  let onLeave: () -> Void

  var name: String { "Autoconnect" }

  /// A cancel before the upstream's subscription is only noted, as before the driver (see
  /// ``OperatorLogic/cancelBeforeSubscriptionEnds``).
  var cancelBeforeSubscriptionEnds: Bool { false }

  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, Failure> {
    .emit(input)
  }

  func ended() {
    onLeave()
  }
}
