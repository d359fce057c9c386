import Synchronization

/// The subscription a subject hands to one subscriber.
///
/// The base class holds what every conduit shares: its subject, its atomic state and the
/// specialized `send` function. Subclasses hold the subscriber with its concrete type:
/// ``SubjectConduitTo`` in a ``HeldSubscriber`` (for subscribers that release their
/// subscription, so the delivery path borrows it without reference counting),
/// ``RetainingSubjectConduitTo`` in a `var` that is cleared when the stream ends (for any other
/// subscriber).
///
/// Only the thread holding the subject's delivery token calls `offer`, `start`, `finish` and
/// `release`; `request` and `cancel` may come from any thread, and never wait for a delivery
/// (see ``SubjectCore``).
@usableFromInline
package class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: `state` is atomic; everything else is immutable or, in the
  // subclasses, touched only by the subject's token holder.

  @usableFromInline
  let subject: SubjectCore<Output, Failure>

  /// Demand and flags; see ``SubjectConduitState``.
  @usableFromInline
  let state: Atomic<UInt>

  /// Sends a value to the subscriber and returns its additional demand.
  ///
  /// A stored function rather than an overridden method: it is created where the subscriber's
  /// type is known (the subject's `receive(subscriber:)`, compiled in the caller's module), so
  /// it is code specialized for the whole downstream pipeline. A class method reached through
  /// the vtable of a generic class would run unspecialized generic code, several times slower.
  @usableFromInline
  let send: (SubjectConduit<Output, Failure>, Output) -> Subscribers.Demand

  @inlinable
  init(
    subject: SubjectCore<Output, Failure>,
    send: @escaping (SubjectConduit<Output, Failure>, Output) -> Subscribers.Demand
  ) {
    self.subject = subject
    self.send = send
    // A replay buffer's subscriber is made behind when it is attached, if there is anything
    // to replay (``SubjectCore/startReplaying(to:)``).
    state = Atomic(subject.kind.replaysCurrentValue ? SubjectConduitState.owesCurrentValue : 0)
  }

  @usableFromInline
  package var description: String { subject.kind.name }

  /// The subscriber as a mirror shows it: `Optional(subscriber)`, or `nil` once the subject
  /// let go of it. Token holder only (``customMirror``).
  @usableFromInline
  var reflectedDownstream: Any { Optional<Any>.none as Any }

  // MARK: Called by the token holder (overridden; cold paths)

  /// Hands the subscriber a subscription and the completion (unless it cancels from inside
  /// `receive(subscription:)`), for a subscriber that arrives after the subject completed.
  @usableFromInline
  func startCompleted(_ completion: Subscribers.Completion<Failure>) {}

  /// Sends the completion downstream.
  @usableFromInline
  func finish(_ completion: Subscribers.Completion<Failure>) {}

  /// Lets go of the subscriber, if this conduit can (after the stream ended).
  @usableFromInline
  func release() {}

  // MARK: Delivery (token holder)

  /// Delivers a value if the subscriber has demand; otherwise, for a replaying subject,
  /// remembers that the subscriber now owes the current value.
  @inlinable
  final func offer(_ value: Output) {
    let current = state.load(ordering: .acquiring)
    Interleaving.point("conduit.offer.loaded")
    if current & SubjectConduitState.terminated != 0 { return }
    let demand = current & SubjectConduitState.demandMask
    if demand == 0 {
      if subject.kind.replays { holdBack(value, seen: current) }
      return
    }
    if current & SubjectConduitState.owesCurrentValue != 0 {
      if subject.kind.replaysLatestValues {
        // Behind in a replay buffer (which already holds `value`): catch up in order.
        subject.catchUp(self)
        return
      }
      state.bitwiseAnd(~SubjectConduitState.owesCurrentValue, ordering: .relaxed)
    }
    if demand != SubjectConduitState.unlimited {
      // Only the token holder subtracts and other threads only add, so this cannot underflow.
      state.subtract(1, ordering: .relaxed)
    }
    let more = send(self, value)
    if more != .none { addDemand(more) }
  }

  /// The subscriber had no demand for `value` when ``offer(_:)`` loaded the state (`seen`):
  /// it is now behind (it receives the current value, or the replay buffer's values, on its
  /// next demand).
  ///
  /// The behind flag is set by one compare-and-swap from `seen`, in the word that holds the
  /// demand, so that a request racing this send is never lost (rule 1): a request that added
  /// demand since `offer` looked makes the exchange fail, and the value is then offered again,
  /// with that demand; a request that comes after the exchange finds the flag and asks the
  /// token holder to catch the subscriber up. (Setting the flag unconditionally after the
  /// decision lost the value, and with a replay buffer the completion too: issue 27.)
  @usableFromInline
  final func holdBack(_ value: Output, seen: UInt) {
    if let replayBuffer = subject.replayBuffer, replayBuffer.capacity == 0 {
      return  // Nothing kept: the value is missed, as a passthrough subject's would be.
    }
    var current = seen
    while current & SubjectConduitState.owesCurrentValue == 0 {
      Interleaving.point("conduit.holdBack")
      let (exchanged, original) = state.compareExchange(
        expected: current, desired: current | SubjectConduitState.owesCurrentValue,
        ordering: .acquiringAndReleasing)
      if exchanged { break }
      current = original
      if current & SubjectConduitState.terminated != 0 { return }
      if current & SubjectConduitState.demandMask != 0 {
        offer(value)  // A request came in meanwhile: the value goes to it now.
        return
      }
    }
    // The token holder (this thread) handles a request's catch-up only after this send, so the
    // cursor is in place before anyone reads it.
    subject.replayBuffer?.holdBackLatest(self)
  }

  /// Whether the subscriber is behind: it owes the current value, or values of a replay buffer.
  @inlinable
  final var isBehind: Bool {
    state.load(ordering: .acquiring) & SubjectConduitState.owesCurrentValue != 0
  }

  /// Delivers the current value if the subscriber owes it and has demand.
  @inlinable
  final func offerCurrentValue(_ value: Output) {
    let current = state.load(ordering: .acquiring)
    guard current & SubjectConduitState.owesCurrentValue != 0,
      current & SubjectConduitState.demandMask != 0
    else { return }
    offer(value)
  }

  /// Marks the conduit terminated; returns whether it was still live.
  @inlinable
  final func terminate() -> Bool {
    state.bitwiseOr(SubjectConduitState.terminated, ordering: .acquiringAndReleasing).oldValue
      & SubjectConduitState.terminated == 0
  }

  /// Whether the conduit was cancelled or completed.
  @inlinable
  final var isTerminated: Bool {
    state.load(ordering: .acquiring) & SubjectConduitState.terminated != 0
  }

  // MARK: Subscription (any thread)

  /// Adds demand, unless the conduit has ended: as in Combine, a mirror shows the demand a
  /// subscription had when it was cancelled or completed, whatever is requested afterwards.
  @inlinable
  final func addDemand(_ demand: Subscribers.Demand) {
    let added = SubjectConduitState.bits(for: demand)
    var current = state.load(ordering: .relaxed)
    while true {
      if current & SubjectConduitState.terminated != 0 { return }
      let updated = SubjectConduitState.adding(added, to: current)
      if updated == current { return }
      let (exchanged, original) = state.compareExchange(
        expected: current, desired: updated, ordering: .acquiringAndReleasing)
      if exchanged { return }
      current = original
    }
  }

  /// Adds demand; a replaying subject then delivers the current value if it is owed. The
  /// subject's first downstream demand makes it request values from its upstreams. A request
  /// of zero stops the program, as in Combine (whose subjects check it).
  @inlinable
  package final func request(_ demand: Subscribers.Demand) {
    checkAPI(
      demand != .none,
      "\(description) was asked for zero values. A request must be for one or more.")
    Interleaving.point("conduit.request")
    addDemand(demand)
    if !subject.upstreamDemanded.load(ordering: .relaxed) { subject.requestUpstreamOnce() }
    if subject.kind.replays {
      // The demand is in the state word before this load, and ``holdBack(_:seen:)`` sets the
      // behind flag by an exchange on the same word: one of the two sees the other.
      Interleaving.point("conduit.request.added")
      let current = state.load(ordering: .acquiring)
      if current & SubjectConduitState.owesCurrentValue != 0,
        current & SubjectConduitState.terminated == 0
      {
        subject.performDemand(subject, self)
      }
    }
  }

  /// Stops deliveries at once and asks the subject to forget this subscriber.
  @inlinable
  package final func cancel() {
    Interleaving.point("conduit.cancel")
    if terminate() {
      subject.performDetach(subject, self)
    }
  }
}

/// A conduit to a subscriber that releases its subscription when the stream ends
/// (``SubscriptionReleasing``): the subscriber is held in a ``HeldSubscriber``, which delivery
/// borrows in place, without reference counting. When the subject forgets the subscriber
/// (after a cancel, or after the completion), the conduit tells it so and lets go of it, even
/// while something else (a `sink`'s `AnyCancellable`) keeps the conduit.
@usableFromInline
final class SubjectConduitTo<Held: SubscriberSlot & ~Copyable>: SubjectConduit<
  Held.Input, Held.Failure
>, @unchecked Sendable
{
  // @unchecked Sendable: `held` is only touched by the subject's token holder.

  @usableFromInline
  @exclusivity(unchecked)
  var held: Held

  @inlinable
  init(subject: SubjectCore<Held.Input, Held.Failure>, held: consuming Held) {
    self.held = held
    super.init(subject: subject) { conduit, value in
      // Only conduits of this class are created with this function.
      unsafeDowncast(conduit, to: SubjectConduitTo<Held>.self).held.receive(value)
    }
  }

  @usableFromInline
  override func startCompleted(_ completion: Subscribers.Completion<Held.Failure>) {
    _ = terminate()
    held.completeAtOnce(with: completion)
    held.release()
  }

  @usableFromInline
  override func finish(_ completion: Subscribers.Completion<Held.Failure>) {
    held.receive(completion: completion)
  }

  /// The subject forgot this subscriber: tell it that no delivery is in progress any more (a
  /// cancelled `Sink` then releases its closures), and let go of it.
  @usableFromInline
  override func release() {
    held.release()
  }

  @usableFromInline
  override var reflectedDownstream: Any { held.reflected }
}

/// A conduit to any other subscriber: like Combine, it clears its reference to the subscriber
/// when the stream ends, so that a subscriber that keeps its subscription forever does not keep
/// itself alive through it. Delivery copies the subscriber out of the `var` (one reference
/// count per reference the subscriber holds).
@usableFromInline
final class RetainingSubjectConduitTo<Downstream: Subscriber>: SubjectConduit<
  Downstream.Input, Downstream.Failure
>, @unchecked Sendable
{
  // @unchecked Sendable: `downstream` is touched only by the subject's token holder.

  @usableFromInline
  @exclusivity(unchecked)
  var downstream: Downstream?

  @inlinable
  init(subject: SubjectCore<Downstream.Input, Downstream.Failure>, downstream: Downstream) {
    self.downstream = downstream
    super.init(subject: subject) { conduit, value in
      unsafeDowncast(conduit, to: RetainingSubjectConduitTo<Downstream>.self).downstream?
        .receive(value) ?? .none
    }
  }

  @usableFromInline
  override func startCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
    _ = terminate()
    let downstream = self.downstream
    self.downstream = nil
    if let downstream { completeAtOnce(downstream, with: completion) }
  }

  @usableFromInline
  override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let downstream = self.downstream
    self.downstream = nil
    downstream?.receive(completion: completion)
  }

  @usableFromInline
  override func release() {
    downstream = nil
  }

  @usableFromInline
  override var reflectedDownstream: Any { downstream as Any }
}

extension SubjectCore {
  /// The attach event for a new subscriber: the fast, borrowing conduit when the subscriber
  /// is known to release its subscription, the retaining kind otherwise; and the function that
  /// hands it its subscription, specialized for its type.
  @inlinable
  package func attachEvent<S: Subscriber>(for subscriber: S) -> SubjectEvent<Output, Failure>
  where S.Input == Output, S.Failure == Failure {
    if S.self is any SubscriptionReleasing.Type {
      let conduit = SubjectConduitTo(subject: self, held: HeldSubscriber.attached(subscriber))
      return .attach(conduit) { conduit in
        unsafeDowncast(conduit, to: SubjectConduitTo<HeldSubscriber<S>>.self).held.start(conduit)
      }
    }
    return .attach(RetainingSubjectConduitTo(subject: self, downstream: subscriber)) { conduit in
      unsafeDowncast(conduit, to: RetainingSubjectConduitTo<S>.self).downstream?
        .receive(subscription: conduit)
    }
  }
}
