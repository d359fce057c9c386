import CombineExCore

/// The publisher behind ``Action/apply(_:)``: each subscription passes the action's gate and
/// becomes a run, or is refused with ``ActionError/disabled``.
@usableFromInline
struct ActionApplication<Input, Output, RunFailure: Error>: ColdPublisher {
  @usableFromInline
  typealias Failure = ActionError<RunFailure>

  @usableFromInline
  let action: Action<Input, Output, RunFailure>
  @usableFromInline
  let input: Input

  /// Inlinable, so that ``Action/apply(_:)`` makes it, and erases it, in the caller's module.
  @inlinable
  init(action: Action<Input, Output, RunFailure>, input: Input) {
    self.action = action
    self.input = input
  }

  @usableFromInline
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    guard action.storage.start() else { return refuse(subscriber) }
    let run = ActionRun(action: action, downstream: subscriber)
    action.execute(input).receive(subscriber: run)
  }

  /// Fails `subscriber` with ``ActionError/disabled``. Out of line: this code runs unspecialized,
  /// and the types it names would otherwise be looked up on every run, refused or not.
  @inline(never)
  private func refuse<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    action.disabledErrorsSubject.send(())
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: .failure(.disabled))
  }
}

/// Where an ``ActionRun`` is in its life. (Not nested in the run: a type nested in a generic
/// class is generic too.)
private enum ActionRunPhase: UInt8 {
  /// Created, waiting for its publisher's subscription.
  case awaitingSubscription
  /// Subscribed to its publisher.
  case subscribed
  /// Completed or cancelled: nothing more happens.
  case terminated
}

/// One run of an ``Action``: subscribed to the publisher the action's closure made, it reports
/// the run's events to the action, then forwards them to the applying subscriber, and ends the
/// run (clearing the gate) on completion or cancel.
///
/// It keeps the action alive until the run ends, and releases the action and the downstream
/// then.
///
/// Its code runs unspecialized (the downstream's type is only known at run time, behind
/// `AnyDeferredPublisher`), where every generic type a method names costs a lookup in the
/// runtime's metadata cache: so the state is a byte and the publisher's subscription, the
/// downstream is kept in a non-generic slot (``ActionRunDownstream``), the lock is taken and
/// released around plain statements rather than closures returning generic tuples, and the
/// downstream is read once per event.
final class ActionRun<Input, Output, RunFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == ActionError<RunFailure> {
  // @unchecked Sendable: `phase`, `upstream`, `action` and `downstream` are guarded by
  // `lock`; calls to the downstream are serial because the upstream's are.

  private let lock = Lock()
  /// The phase, apart from the subscription: the core's `OperatorStatus` keeps the
  /// subscription in its `subscribed` case, and testing its case in this unspecialized code
  /// copied and destroyed the `any Subscription` through its value witnesses (about 400
  /// instructions a run).
  @exclusivity(unchecked) private var phase = ActionRunPhase.awaitingSubscription
  /// The publisher's subscription while subscribed, `Subscriptions.empty` otherwise: not an
  /// optional, whose copies here ran `Optional`'s generic value witnesses.
  @exclusivity(unchecked) private var upstream: any Subscription = Subscriptions.empty
  @exclusivity(unchecked) private var action: Action<Input, Output, RunFailure>?
  /// The applying subscriber until the run ends: not an `Optional<Downstream>`, whose metadata
  /// this unspecialized code would look up in every function that touches it (see
  /// ``ActionRunDownstream``).
  @exclusivity(unchecked) private var downstream: ActionRunDownstream

  init(action: Action<Input, Output, RunFailure>, downstream: Downstream) {
    self.action = action
    self.downstream = ActionRunDownstream(downstream)
  }

  deinit {
    downstream.clear(as: Downstream.self)
  }

  var description: String { "Action run" }

  func receive(subscription: any Subscription) {
    var downstream = ActionRunDownstream()
    lock.withLock {
      guard phase == .awaitingSubscription else { return }
      phase = .subscribed
      upstream = subscription
      downstream = self.downstream.copy(as: Downstream.self)
    }
    guard downstream.isHeld else { return subscription.cancel() }
    downstream.consume(as: Downstream.self).receive(subscription: self)
  }

  func receive(_ input: Output) -> Subscribers.Demand {
    var action: Action<Input, Output, RunFailure>?
    var downstream = ActionRunDownstream()
    lock.withLock {
      guard phase == .subscribed else { return }
      action = self.action
      downstream = self.downstream.copy(as: Downstream.self)
    }
    guard downstream.isHeld else { return .none }
    let subscriber = downstream.consume(as: Downstream.self)
    action?.sendValue(input)
    return subscriber.receive(input)
  }

  func receive(completion: Subscribers.Completion<RunFailure>) {
    var wasAwaitingSubscription = false
    var action: Action<Input, Output, RunFailure>?
    var downstream = ActionRunDownstream()
    var upstream = Subscriptions.empty
    lock.withLock {
      if phase == .terminated { return }
      wasAwaitingSubscription = phase == .awaitingSubscription
      phase = .terminated
      swap(&upstream, &self.upstream)
      action = self.action
      downstream = self.downstream.take()
      self.action = nil
    }
    // The subscription is released here, outside the lock.
    withExtendedLifetime(upstream) {}
    guard downstream.isHeld else { return }
    let subscriber = downstream.consume(as: Downstream.self)
    guard let action else { return }
    // The action first: the gate is clear and its state published before the subscriber hears
    // of the end, so the subscriber may apply again from its completion handler.
    action.storage.end()
    // Tested by the action, in code specialized for `RunFailure` (see `Action.isFailure`).
    if action.isFailure(completion) {
      return forwardFailure(
        completion, of: action, to: subscriber, subscribing: wasAwaitingSubscription)
    }
    action.completedSubject.send(())
    if wasAwaitingSubscription {
      subscriber.receive(subscription: Subscriptions.empty)
    }
    // Made by the action: no generic type is named here (see `Action.finishedRun`).
    subscriber.receive(completion: action.finishedRun)
  }

  /// Reports a failed run to the action and its subscriber. Out of line, as `refuse` is: the
  /// types it names are looked up only when a run fails.
  @inline(never)
  private func forwardFailure(
    _ completion: Subscribers.Completion<RunFailure>, of action: Action<Input, Output, RunFailure>,
    to downstream: Downstream, subscribing: Bool
  ) {
    guard case .failure(let failure) = completion else { return }
    action.errorsSubject.send(failure)
    if subscribing {
      downstream.receive(subscription: Subscriptions.empty)
    }
    downstream.receive(completion: .failure(.publisherFailure(failure)))
  }

  func request(_ demand: Subscribers.Demand) {
    let (isSubscribed, subscription) = lock.withLock { (phase == .subscribed, upstream) }
    if isSubscribed { subscription.request(demand) }
  }

  func cancel() {
    var subscription = Subscriptions.empty
    var action: Action<Input, Output, RunFailure>?
    var downstream = ActionRunDownstream()
    lock.withLock {
      guard phase == .subscribed else { return }
      phase = .terminated
      swap(&subscription, &upstream)
      action = self.action
      downstream = self.downstream.take()
      self.action = nil
    }
    guard let action else { return }
    subscription.cancel()
    action.storage.end()
    // The downstream is released here, outside the lock, after the cancel.
    downstream.clear(as: Downstream.self)
  }
}
