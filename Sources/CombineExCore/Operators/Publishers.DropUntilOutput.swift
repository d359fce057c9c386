extension Publisher {
  /// Ignores elements from the upstream publisher until it receives an element from a second
  /// publisher.
  ///
  /// ```swift
  /// let values = PassthroughSubject<Int, Never>()
  /// let start = PassthroughSubject<Void, Never>()
  /// let cancellable = values.drop(untilOutputFrom: start).sink { print($0) }
  /// values.send(1)  // dropped: `start` has not sent anything yet
  /// start.send()
  /// values.send(2)
  /// values.send(3)
  /// // Prints: 2, 3
  /// ```
  ///
  /// The second publisher's first value, sent from any thread, lets every later upstream value
  /// through (the second publisher is then cancelled: only its first value matters). If it
  /// completes before sending a value, the result completes the same way and cancels the
  /// upstream. A dropped value gives its unit of demand back to the upstream, so the subscriber
  /// still receives as many values as it asked for. See ``Publishers/DropUntilOutput``.
  ///
  /// - Parameter publisher: A publisher to monitor for its first emitted element.
  /// - Returns: A publisher that drops elements from the upstream publisher until the `other`
  ///   publisher produces a value.
  public func drop<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.DropUntilOutput<Self, P>
  where Failure == P.Failure {
    Publishers.DropUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that ignores elements from the upstream publisher until it receives an
  /// element from a second publisher.
  ///
  /// The downstream receives its subscription first; then `other` is subscribed (and asked for
  /// one value), then `upstream`.
  /// - **Values.** Upstream values are dropped until `other` sends its first value; from then
  ///   on they pass straight through, as the upstream delivers them.
  /// - **Demand** passes straight through to the upstream (demand requested before the
  ///   upstream's subscription arrives waits for it). A dropped value gives its unit of demand
  ///   back to the upstream, so the downstream still receives as many values as it asked for
  ///   once `other` has sent its value.
  /// - **Completion.** The upstream's completion passes through (and cancels `other`). If
  ///   `other` completes before sending a value, the result completes the same way (finished
  ///   or failed) and cancels the upstream. Once `other` has sent its value it is cancelled,
  ///   and its completion no longer matters.
  /// - **Cancellation** cancels the upstream and `other`, and releases the downstream.
  /// - **Threading.** `other` may send from any thread, concurrently with the upstream: its
  ///   value switches the state atomically, and the downstream receives one call at a time
  ///   (values are only delivered after the switch, and `other`'s completion only matters
  ///   before it).
  public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
  where Upstream.Failure == Other.Failure {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// A publisher to monitor for its first emitted element.
    public let other: Other

    /// Creates a publisher that ignores elements from the upstream publisher until it receives
    /// an element from another publisher.
    ///
    /// - Parameters:
    ///   - upstream: A publisher to drop elements from while waiting for another publisher to
    ///     emit elements.
    ///   - other: A publisher to monitor for its first emitted element.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    /// Attaches the subscriber: it receives its subscription, then `other` and `upstream` are
    /// subscribed, in that order.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Other.Failure == S.Failure {
      let inner = DropUntilOutputInner<Upstream.Output, Other.Output, S>(downstream: subscriber)
      subscriber.receive(subscription: inner)
      guard inner.isLive else { return }
      other.receive(subscriber: DropUntilOutputTrigger(inner: inner))
      guard inner.isLive else { return }
      upstream.receive(subscriber: inner)
    }
  }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

/// The upstream's subscriber and the downstream's subscription of
/// ``Publishers/DropUntilOutput``; ``DropUntilOutputTrigger`` reports `other`'s events to it.
final class DropUntilOutputInner<Input, Trigger, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Input {
  // @unchecked Sendable: every stored property is guarded by `lock`.
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var upstream = OperatorStatus.awaitingSubscription
  /// Demand requested before the upstream's subscription arrived.
  private var pendingDemand = Subscribers.Demand.none
  private var other = OperatorStatus.awaitingSubscription
  /// Whether `other` sent its value: upstream values now pass through.
  private var triggered = false
  /// Completed or cancelled.
  private var terminated = false
  /// Released when the completion is delivered or the downstream cancels.
  private var downstream: Downstream?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "DropUntilOutput" }

  /// Whether the subscription still runs (to skip subscribing once it is over).
  var isLive: Bool { lock.withLock { !terminated } }

  // MARK: Upstream

  func receive(subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard !terminated, case .awaitingSubscription = upstream else { return nil }
      upstream = .subscribed(subscription)
      defer { pendingDemand = .none }
      return pendingDemand
    }
    guard let demand else {
      subscription.cancel()
      return
    }
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let (live, downstream) = lock.withLock { () -> (Bool, Downstream?) in
      guard !terminated, upstream.isSubscribed else { return (false, nil) }
      return (true, triggered ? self.downstream : nil)
    }
    guard live else { return .none }
    // A dropped value gives its unit of demand back.
    guard let downstream else { return .max(1) }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (other, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard !terminated, upstream.isSubscribed else { return (nil, nil) }
      return terminate()
    }
    other?.cancel()
    downstream?.receive(completion: completion)
  }

  // MARK: Other

  func receiveTrigger(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard !terminated, !triggered, case .awaitingSubscription = other else { return false }
      other = .subscribed(subscription)
      return true
    }
    if accepted {
      subscription.request(.max(1))
    } else {
      subscription.cancel()
    }
  }

  func receiveTrigger() {
    let other = lock.withLock { () -> (any Subscription)? in
      guard !terminated, !triggered, case .subscribed(let other) = self.other else { return nil }
      triggered = true
      self.other = .terminated
      return other
    }
    // Only the first value matters: `other` is not needed any more.
    other?.cancel()
  }

  func receiveTrigger(completion: Subscribers.Completion<Failure>) {
    let (upstream, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard !terminated, !triggered, other.isSubscribed else { return (nil, nil) }
      other = .terminated
      terminated = true
      var upstreamSubscription: (any Subscription)?
      if case .subscribed(let subscription) = self.upstream {
        upstreamSubscription = subscription
      }
      self.upstream = .terminated
      defer { self.downstream = nil }
      return (upstreamSubscription, self.downstream)
    }
    upstream?.cancel()
    downstream?.receive(completion: completion)
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard !terminated else { return nil }
      guard case .subscribed(let subscription) = self.upstream else {
        pendingDemand += demand
        return nil
      }
      return subscription
    }
    upstream?.request(demand)
  }

  func cancel() {
    let (upstream, other) = lock.withLock { () -> ((any Subscription)?, (any Subscription)?) in
      guard !terminated else { return (nil, nil) }
      terminated = true
      downstream = nil
      defer {
        self.upstream = .terminated
        self.other = .terminated
      }
      var upstreamSubscription: (any Subscription)?
      if case .subscribed(let subscription) = self.upstream { upstreamSubscription = subscription }
      var otherSubscription: (any Subscription)?
      if case .subscribed(let subscription) = self.other { otherSubscription = subscription }
      return (upstreamSubscription, otherSubscription)
    }
    upstream?.cancel()
    other?.cancel()
  }

  /// Ends the subscription after the upstream completed (under the lock): returns `other`'s
  /// subscription, to cancel, and the downstream, to complete.
  private func terminate() -> ((any Subscription)?, Downstream?) {
    terminated = true
    upstream = .terminated
    var otherSubscription: (any Subscription)?
    if case .subscribed(let subscription) = other { otherSubscription = subscription }
    other = .terminated
    defer { downstream = nil }
    return (otherSubscription, downstream)
  }
}

/// The subscriber ``Publishers/DropUntilOutput`` attaches to `other`.
struct DropUntilOutputTrigger<Input, Trigger, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomCombineIdentifierConvertible
where Downstream.Input == Input {
  typealias Failure = Downstream.Failure

  let inner: DropUntilOutputInner<Input, Trigger, Downstream>

  var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }

  var description: String { inner.description }

  func receive(subscription: any Subscription) {
    inner.receiveTrigger(subscription: subscription)
  }

  func receive(_ input: Trigger) -> Subscribers.Demand {
    inner.receiveTrigger()
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    inner.receiveTrigger(completion: completion)
  }
}
