extension Publisher where Failure == Never {
  /// Creates a connectable wrapper around the publisher.
  ///
  /// Subscribers attach at any time, but nothing flows until ``ConnectablePublisher/connect()``
  /// subscribes to the upstream; values are then broadcast to every attached subscriber that
  /// has demand (a subscriber without demand misses them, as with a `PassthroughSubject`).
  ///
  /// ```swift
  /// let connectable = [1, 2, 3].publisher.makeConnectable()
  /// let cancellable = connectable.sink { print($0) }
  /// // Nothing yet.
  /// let connection = connectable.connect()
  /// // Prints: 1, 2, 3
  /// ```
  ///
  /// - Returns: A ``ConnectablePublisher`` wrapping this publisher.
  public func makeConnectable() -> Publishers.MakeConnectable<Self> {
    Publishers.MakeConnectable(upstream: self)
  }
}

extension Publishers {
  /// A publisher that provides explicit connectability to another publisher.
  ///
  /// `Publishers.MakeConnectable` is a ``ConnectablePublisher``, which allows you to perform
  /// configuration before publishing any elements. Call ``connect()`` on this publisher when
  /// you want to attach to its upstream publisher and start producing elements.
  ///
  /// Internally, subscribers attach to a `PassthroughSubject`, and ``connect()`` subscribes
  /// that subject to the upstream with unlimited demand. Copies of the struct share the
  /// subject and the connection.
  ///
  /// ## Connecting
  /// - While a connection is live, ``connect()`` returns it again instead of subscribing to
  ///   the upstream a second time; cancelling any of the returned cancellables ends it.
  /// - Cancelling the connection cancels the upstream subscription; subscribers stay attached
  ///   (without a completion), and a later ``connect()`` subscribes to the upstream anew.
  /// - When the upstream completes, every subscriber receives the completion; later
  ///   subscribers receive only the completion.
  public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    private let core: ConnectableCore<Upstream>

    /// Creates a connectable publisher, attached to the provided upstream publisher.
    public init(upstream: Upstream) {
      core = ConnectableCore(upstream: upstream)
    }

    /// Attaches the subscriber to the shared subject; nothing flows until ``connect()``.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      core.subject.receive(subscriber: subscriber)
    }

    /// Subscribes the shared subject to the upstream (unless already connected) and returns
    /// the connection; cancel it to cancel the upstream subscription.
    public func connect() -> any Cancellable {
      core.connect()
    }
  }
}

/// The shared state of ``Publishers/MakeConnectable``: the subject subscribers attach to and
/// the live connection to the upstream.
final class ConnectableCore<Upstream: Publisher>: @unchecked Sendable {
  // @unchecked Sendable: `connection` is guarded by `lock`; `subject` is thread-safe;
  // `upstream` is a constant.
  let upstream: Upstream
  let subject = PassthroughSubject<Upstream.Output, Upstream.Failure>()
  private let lock = Lock()
  private var connection: ConnectionSubscriber<Upstream>?

  init(upstream: Upstream) {
    self.upstream = upstream
  }

  func connect() -> any Cancellable {
    let (link, isNew) = lock.withLock { () -> (ConnectionSubscriber<Upstream>, Bool) in
      if let connection, !connection.isFinished { return (connection, false) }
      let link = ConnectionSubscriber<Upstream>(subject: subject) { [weak self] ended in
        self?.connectionEnded(ended)
      }
      connection = link
      return (link, true)
    }
    if isNew { upstream.receive(subscriber: link) }
    return link
  }

  /// Forgets a connection that was cancelled or completed, so the next `connect()` makes a new
  /// one.
  private func connectionEnded(_ ended: ConnectionSubscriber<Upstream>) {
    lock.withLock {
      if connection === ended { connection = nil }
    }
  }
}

/// A connection: subscribes to the upstream with unlimited demand and forwards everything to
/// the subject; cancelling it cancels the upstream subscription.
final class ConnectionSubscriber<Upstream: Publisher>: Subscriber, Cancellable,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `status` and `onEnd` are guarded by `lock`; `subject` is thread-safe.
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var cancelledEarly = false
  private let subject: PassthroughSubject<Upstream.Output, Upstream.Failure>
  private var onEnd: ((ConnectionSubscriber<Upstream>) -> Void)?

  init(
    subject: PassthroughSubject<Upstream.Output, Upstream.Failure>,
    onEnd: @escaping (ConnectionSubscriber<Upstream>) -> Void
  ) {
    self.subject = subject
    self.onEnd = onEnd
  }

  var description: String { "MakeConnectable" }

  /// Whether the connection was cancelled or its upstream completed.
  var isFinished: Bool {
    lock.withLock {
      if case .terminated = status { return true }
      return cancelledEarly
    }
  }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = status, !cancelledEarly else { return false }
      status = .subscribed(subscription)
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed }) else { return .none }
    subject.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let onEnd = lock.withLock { () -> ((ConnectionSubscriber<Upstream>) -> Void)?? in
      guard status.isSubscribed else { return nil }
      status = .terminated
      defer { self.onEnd = nil }
      return .some(self.onEnd)
    }
    guard let onEnd else { return }
    onEnd?(self)
    subject.send(completion: completion)
  }

  func cancel() {
    let (upstream, onEnd) = lock.withLock {
      () -> ((any Subscription)?, ((ConnectionSubscriber<Upstream>) -> Void)?) in
      defer {
        if case .awaitingSubscription = status { cancelledEarly = true }
        status = .terminated
        self.onEnd = nil
      }
      guard case .subscribed(let upstream) = status else { return (nil, self.onEnd) }
      return (upstream, self.onEnd)
    }
    onEnd?(self)
    upstream?.cancel()
  }
}
