extension ConnectablePublisher {
  /// Automates the process of connecting or disconnecting from this connectable publisher.
  ///
  /// The first subscriber connects the upstream (after it has been attached, so it sees the
  /// first values); when the last subscriber cancels, the connection is cancelled, and a later
  /// subscriber connects again. As in Combine, a subscriber that receives its completion does
  /// not leave: once the upstream has completed, the connection stays, and later subscribers
  /// do not connect again (the upstream's work is not repeated).
  ///
  /// ```swift
  /// let cancellable = Timer.publish(every: 1, on: .main, in: .common)
  ///   .autoconnect()
  ///   .sink { _ in print("tick") }
  /// // Prints: tick — every second, while the main run loop runs
  /// // Not run by the doc tests: it needs the main run loop.
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
  /// downstream subscriber attaches, and cancels the connection when the last one cancels (a
  /// completion is not a cancel: see ``ConnectablePublisher/autoconnect()``). It is a class, as
  /// in Combine: its copies share the connection. As in Combine, each subscriber receives the
  /// upstream's own subscription (its description and `combineIdentifier`), wrapped so that
  /// its cancel is counted.
  public class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
    // @unchecked Sendable: `subscriberCount` and `connection` are guarded by `lock`; `upstream`
    // is a constant.
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public final let upstream: Upstream

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    var subscriberCount = 0
    @usableFromInline
    var connection = AutoconnectState.disconnected

    /// Creates a publisher that automatically connects to an upstream connectable publisher.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber to the upstream, and connects the upstream if it is the first.
    /// Inlinable, so that the subscriber's module specializes it and `AutoconnectInner`.
    /// Final (the class has no subclasses), so that a call through a concrete type is direct
    /// and the inlined body is used: through the class's vtable it ran unspecialized, and
    /// `s.Autoconnect` cost 63,957 instructions instead of 38,717. Combine declares it without
    /// `final`; no user can tell, since the class is not `open` (Tools/core-api.txt records it).
    @inlinable
    public final func receive<S: Subscriber>(subscriber: S)
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
      upstream.subscribe(AutoconnectInner(parent: self, downstream: subscriber))
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

    /// One subscriber cancelled: the last one disconnects.
    @usableFromInline
    func subscriberLeft() {
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
@usableFromInline
enum AutoconnectState {
  case disconnected
  /// `connect()` is running; if the last subscriber left meanwhile, the connection is
  /// cancelled as soon as it returns.
  case connecting(disconnectRequested: Bool)
  case connected(any Cancellable)
}

/// The subscriber an ``Publishers/Autoconnect`` attaches to its upstream for one downstream
/// subscriber: it passes everything on (once: nothing after the completion or a cancel), and
/// hands the downstream the upstream's subscription wrapped in an ``AutoconnectSubscription``,
/// whose cancel tells the autoconnect that the subscriber left (once).
///
/// As in Combine, it shows itself as `"Autoconnect"` in a debugger or a playground, with the
/// autoconnect publisher (`parent`) and the downstream as its mirror's children.
///
/// Inlinable, and its upstream-side protocol methods and the downstream's request and cancel
/// only call the closures of ``entries``, made in the inlined `init` (specialized code, as
/// ``OperatorDriver/entries``).
// @unchecked Sendable: `state` is guarded by `lock`; `parent` is a constant.
@usableFromInline
final class AutoconnectInner<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
  NamedReflection, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  enum State {
    /// Waiting for the upstream's subscription.
    case awaiting(Downstream)
    /// The downstream has the wrapped subscription.
    case subscribed(Downstream, any Subscription)
    /// Completed: the downstream is released; a cancel still counts as leaving.
    case completed(any Subscription)
    /// Cancelled (the subscriber left), or completed before any subscription.
    case ended
  }

  @usableFromInline
  let lock = Lock()
  /// Read and written only under `lock`.
  @exclusivity(unchecked)
  @usableFromInline
  var state: State
  /// The autoconnect publisher, told when the subscriber leaves.
  @usableFromInline
  let parent: Publishers.Autoconnect<Upstream>
  @usableFromInline
  let entries: Entries

  @inlinable
  init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
    state = .awaiting(downstream)
    self.parent = parent
    entries = Entries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
  }

  /// The entry points of the events, written in the inlined `init`, so specialized; they
  /// capture nothing (no allocation).
  @usableFromInline
  typealias Entries = SubscriberEntries<AutoconnectInner, Input, Failure>

  @usableFromInline
  var description: String { "Autoconnect" }

  /// The autoconnect publisher and the downstream (`nil` once it was released), read when a
  /// mirror is asked for.
  @usableFromInline
  var customMirror: Mirror {
    let downstream = lock.withLock { () -> Downstream? in
      switch state {
      case .awaiting(let downstream), .subscribed(let downstream, _): downstream
      case .completed, .ended: nil
      }
    }
    return Mirror(
      self,
      children: [
        ("parent", parent), ("downstream", downstream.map { $0 as Any } ?? downstream as Any),
      ])
  }

  @inlinable
  func receive(subscription: any Subscription) {
    entries.subscription(self, subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    entries.value(self, input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    entries.completion(self, completion)
  }

  /// The downstream requested `demand` through its ``AutoconnectSubscription``.
  @inlinable
  func request(_ demand: Subscribers.Demand) {
    entries.request(self, demand)
  }

  /// The downstream cancelled through its ``AutoconnectSubscription``: the subscriber leaves
  /// (once), then the upstream subscription is cancelled.
  @inlinable
  func cancel() {
    entries.cancel(self)
  }

  @inlinable
  func handle(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaiting(let downstream) = state else { return nil }
      state = .subscribed(downstream, subscription)
      return downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: AutoconnectSubscription(inner: self, upstream: subscription))
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .subscribed(let downstream, _) = state else { return nil }
      return downstream
    }
    return downstream?.receive(input) ?? .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    // As in Combine, a completion before the subscription is passed on too.
    let downstream = lock.withLock { () -> Downstream? in
      switch state {
      case .awaiting(let downstream):
        state = .ended
        return downstream
      case .subscribed(let downstream, let subscription):
        state = .completed(subscription)
        return downstream
      case .completed, .ended:
        return nil
      }
    }
    downstream?.receive(completion: completion)
  }

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(_, let upstream) = state else { return nil }
      return upstream
    }
    upstream?.request(demand)
  }

  @inlinable
  func handleCancel() {
    let taken = lock.withLock { () -> (upstream: (any Subscription)?, Downstream?) in
      defer { state = .ended }
      switch state {
      case .subscribed(let downstream, let upstream): return (upstream, downstream)
      case .completed(let upstream): return (upstream, nil)
      case .awaiting, .ended: return (nil, nil)
      }
    }
    guard let upstream = taken.upstream else { return }
    parent.subscriberLeft()
    upstream.cancel()
    // The downstream is released here, after the lock.
    _ = taken
  }
}

/// The subscription an ``Publishers/Autoconnect`` subscriber receives: the upstream's, as in
/// Combine (its description, also as its playground value, and `combineIdentifier`; no mirror
/// of its own), with the cancel counted.
@usableFromInline
struct AutoconnectSubscription<Upstream: ConnectablePublisher, Downstream: Subscriber>:
  Subscription, CustomStringConvertible, CustomPlaygroundDisplayConvertible
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  @usableFromInline
  let inner: AutoconnectInner<Upstream, Downstream>
  @usableFromInline
  let upstream: any Subscription

  @inlinable
  init(inner: AutoconnectInner<Upstream, Downstream>, upstream: any Subscription) {
    self.inner = inner
    self.upstream = upstream
  }

  @usableFromInline
  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

  @usableFromInline
  var description: String { String(describing: upstream) }

  @usableFromInline
  var playgroundDescription: Any { description }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    inner.entries.request(inner, demand)
  }

  @inlinable
  func cancel() {
    inner.entries.cancel(inner)
  }
}
