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
  /// Internally, as in Combine, it is a ``Publishers/Multicast`` of a `PassthroughSubject`:
  /// subscribers attach to the subject, and ``connect()`` subscribes the subject to the
  /// upstream with unlimited demand. Copies of the struct share the subject and the
  /// connection.
  ///
  /// ## Connecting
  /// - While a connection is live, ``connect()`` returns it again instead of subscribing to
  ///   the upstream a second time; cancelling any of the returned cancellables ends it.
  /// - Cancelling the connection cancels the upstream subscription; subscribers stay attached
  ///   (without a completion), and a later ``connect()`` subscribes to the upstream anew.
  /// - When the upstream completes, every subscriber receives the completion; later
  ///   subscribers receive only the completion, and ``connect()`` no longer subscribes to
  ///   the upstream.
  public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    @usableFromInline
    let multicast: Publishers.Multicast<Upstream, PassthroughSubject<Output, Failure>>

    /// Creates a connectable publisher, attached to the provided upstream publisher.
    public init(upstream: Upstream) {
      multicast = Publishers.Multicast(upstream: upstream) { PassthroughSubject() }
    }

    /// Attaches the subscriber to the shared subject; nothing flows until ``connect()``.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      multicast.receive(subscriber: subscriber)
    }

    /// Subscribes the shared subject to the upstream (unless already connected) and returns
    /// the connection; cancel it to cancel the upstream subscription.
    public func connect() -> any Cancellable {
      multicast.connect()
    }
  }
}
