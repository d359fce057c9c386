extension Publisher {
  /// Republishes elements until another publisher emits an element.
  ///
  /// ```swift
  /// let values = PassthroughSubject<Int, Never>()
  /// let stop = PassthroughSubject<Void, Never>()
  /// let cancellable = values.prefix(untilOutputFrom: stop)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// values.send(1)
  /// values.send(2)
  /// stop.send()
  /// values.send(3)  // ignored: the result has finished
  /// // Prints: 1, 2, finished
  /// ```
  ///
  /// The other publisher's first value, sent from any thread, finishes the result and cancels
  /// the upstream at once (if a value is being delivered meanwhile, `.finished` follows as
  /// soon as that delivery returns). The other publisher's completion without a value is
  /// ignored. See ``Publishers/PrefixUntilOutput``.
  ///
  /// - Parameter publisher: A second publisher.
  /// - Returns: A publisher that republishes elements until the second publisher publishes an
  ///   element.
  public func prefix<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.PrefixUntilOutput<Self, P>
  {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that republishes elements until another publisher emits an element.
  ///
  /// The downstream receives its subscription first; then `other` is subscribed (and asked for
  /// one value), then `upstream`.
  /// - **Values and demand** pass straight through: upstream values reach the downstream as
  ///   the upstream delivers them, and the downstream's requests (and the demand it returns)
  ///   go to the upstream (demand requested before the upstream's subscription arrives waits
  ///   for it).
  /// - **Completion.** `other`'s first value finishes the result: the upstream and `other` are
  ///   cancelled at once and `.finished` is delivered, right away or, if an upstream value is
  ///   being delivered on another thread at that moment, as soon as that delivery returns;
  ///   nothing follows it. `other`'s completion without a value is ignored (its failure type
  ///   may differ from the upstream's). The upstream's completion passes through and cancels
  ///   `other`.
  /// - **Cancellation** cancels the upstream, then `other`, and releases the downstream.
  /// - **Threading.** `other` may send from any thread, concurrently with the upstream: the
  ///   downstream never receives `.finished` while it is receiving a value.
  public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// Another publisher, whose first output causes this publisher to finish.
    public let other: Other

    /// Creates a publisher that republishes elements until another publisher emits an
    /// element.
    ///
    /// - Parameters:
    ///   - upstream: The publisher that this publisher receives elements from.
    ///   - other: Another publisher, whose first output causes this publisher to finish.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    /// Attaches the subscriber: it receives its subscription, then `other` and `upstream` are
    /// subscribed, in that order.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      let inner = PrefixUntilOutputInner<S>(downstream: subscriber)
      subscriber.receive(subscription: inner)
      guard inner.isLive else { return }
      other.receive(
        subscriber: PrefixUntilOutputTrigger<Other.Output, Other.Failure, S>(inner: inner))
      guard inner.isLive else { return }
      upstream.receive(subscriber: inner)
    }
  }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

/// The upstream's subscriber and the downstream's subscription of
/// ``Publishers/PrefixUntilOutput``; ``PrefixUntilOutputTrigger`` reports `other`'s events to
/// it.
///
/// Values pass through without a lock held; `deliveries` counts the deliveries in progress
/// (more than one only when the upstream sends re-entrantly, from inside the downstream's
/// `receive`), so that a completion decided on another thread meanwhile waits in
/// `pendingCompletion` and the last delivery to return delivers it.
final class PrefixUntilOutputInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: every stored property is guarded by `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var upstream = OperatorStatus.awaitingSubscription
  /// Demand requested before the upstream's subscription arrived.
  private var pendingDemand = Subscribers.Demand.none
  private var other = OperatorStatus.awaitingSubscription
  /// Whether the completion was decided (or the downstream cancelled).
  private var terminated = false
  /// Upstream values being delivered right now.
  private var deliveries = 0
  /// A completion decided while a delivery was in progress.
  private var pendingCompletion: Subscribers.Completion<Failure>?
  /// Released when the completion is handed out or the downstream cancels.
  private var downstream: Downstream?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "PrefixUntilOutput" }

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
    let downstream = lock.withLock { () -> Downstream? in
      guard !terminated, upstream.isSubscribed, let downstream = self.downstream else {
        return nil
      }
      deliveries += 1
      return downstream
    }
    guard let downstream else { return .none }
    let more = downstream.receive(input)
    let completion = lock.withLock { () -> Subscribers.Completion<Failure>? in
      deliveries -= 1
      guard deliveries == 0, let completion = pendingCompletion else { return nil }
      pendingCompletion = nil
      self.downstream = nil
      return completion
    }
    if let completion {
      downstream.receive(completion: completion)
      return .none
    }
    return more
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ upstream.isSubscribed }) else { return }
    end(with: completion)
  }

  // MARK: Other

  func receiveTrigger(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard !terminated, case .awaitingSubscription = other else { return false }
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
    guard lock.withLock({ other.isSubscribed }) else { return }
    end(with: .finished)
  }

  func receiveTriggerCompletion() {
    // Without a value, `other` changes nothing: just forget its subscription.
    lock.withLock {
      if other.isSubscribed { other = .terminated }
    }
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
    let (upstream, other, released) = lock.withLock {
      () -> ((any Subscription)?, (any Subscription)?, Downstream?) in
      // A completion decided while a delivery runs waits for it in `pendingCompletion`: a
      // cancel from inside that delivery drops it, so nothing follows the cancel (rule 2).
      guard !terminated || pendingCompletion != nil else { return (nil, nil, nil) }
      terminated = true
      pendingCompletion = nil
      defer { downstream = nil }
      let (upstream, other) = releaseSubscriptions()
      return (upstream, other, downstream)
    }
    _ = released  // Released after the lock.
    upstream?.cancel()
    other?.cancel()
  }

  // MARK: Ending

  /// Ends the subscription with `completion` (once): cancels the upstream and `other`, then
  /// delivers the completion now, or leaves it to the delivery in progress.
  private func end(with completion: Subscribers.Completion<Failure>) {
    let (upstream, other, downstream) = lock.withLock {
      () -> ((any Subscription)?, (any Subscription)?, Downstream?) in
      guard !terminated else { return (nil, nil, nil) }
      terminated = true
      let (upstream, other) = releaseSubscriptions()
      if deliveries > 0 {
        pendingCompletion = completion
        return (upstream, other, nil)
      }
      defer { self.downstream = nil }
      return (upstream, other, self.downstream)
    }
    upstream?.cancel()
    other?.cancel()
    downstream?.receive(completion: completion)
  }

  /// Forgets both subscriptions (under the lock); returns them, to cancel.
  private func releaseSubscriptions() -> ((any Subscription)?, (any Subscription)?) {
    var upstreamSubscription: (any Subscription)?
    if case .subscribed(let subscription) = upstream { upstreamSubscription = subscription }
    var otherSubscription: (any Subscription)?
    if case .subscribed(let subscription) = other { otherSubscription = subscription }
    upstream = .terminated
    other = .terminated
    return (upstreamSubscription, otherSubscription)
  }
}

/// The subscriber ``Publishers/PrefixUntilOutput`` attaches to `other`.
struct PrefixUntilOutputTrigger<Input, Failure: Error, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomCombineIdentifierConvertible
{
  let inner: PrefixUntilOutputInner<Downstream>

  var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }

  var description: String { inner.description }

  func receive(subscription: any Subscription) {
    inner.receiveTrigger(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    inner.receiveTrigger()
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    inner.receiveTriggerCompletion()
  }
}
