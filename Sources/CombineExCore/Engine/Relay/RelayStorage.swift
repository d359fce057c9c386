/// The subscription of the operators that relay one upstream at a time (Concatenate, Catch,
/// TryCatch, Retry): it owns the ``RelayStateMachine`` and its lock, passes values and demand
/// through, and performs what the machine decides after releasing the lock.
///
/// Subclasses decide what follows each stage: they subscribe a stage with
/// ``subscribe(_:stage:role:onCompletion:)``, and from its completion handler (called only if
/// that stage was the live one) either subscribe the next stage or end with ``finish(_:)``.
/// They also say how they treat an upstream that breaks the rules (``unwantedValue(stage:)``,
/// ``unexpectedCompletion(_:stage:isFailure:)``), as Combine's operators differ there.
///
/// A multi-input machine (its inputs come one after another), not an ``OperatorDriver``: each
/// stage has a subscriber of its own (``RelayStage``), tagged with its number, so that a late
/// event of a finished stage is told apart from the live stage's, and the demand the
/// downstream is still owed carries over to the next stage.
class RelayStorage<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: `machine` and `downstream` are guarded by `lock`; subclasses guard
  // their own mutable state with `lock` too.
  let lock = Lock()
  private var machine = RelayStateMachine()
  /// Released when the completion is delivered or the downstream cancels.
  private var downstream: Downstream?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "Relay" }

  /// Whether `customMirror` shows the downstream and its outstanding demand, as Combine's
  /// Catch and TryCatch do (the others show no children).
  var mirrorsDemand: Bool { false }

  // MARK: Policies (subclasses override; called without the lock)

  /// The live stage sent a value nobody asked for. Default: it is ignored.
  func unwantedValue(stage: Int) {}

  /// Whether a stage's completion that comes before its subscription counts (`retry`), rather
  /// than being reported to ``unexpectedCompletion(_:stage:isFailure:)``. Default: `false`.
  var acceptsCompletionBeforeSubscription: Bool { false }

  /// A stage completed before its subscription, or an earlier stage completed again. Default:
  /// ignored.
  func unexpectedCompletion(
    _ kind: RelayStateMachine.StageCompletion, stage: Int, isFailure: Bool
  ) {}

  /// Whether the demand the downstream returns for a value is requested from the stage's
  /// subscription (`retry`, as in Combine) rather than returned from the stage's `receive`.
  /// Default: `false`.
  var requestsReturnedDemand: Bool { false }

  /// The downstream cancelled; called after the live stage was cancelled, without the lock, so
  /// that a subclass releases what it keeps for later stages. Default: nothing.
  func didCancel() {}

  // MARK: Stages

  /// Subscribes `publisher` as stage `stage`, unless the relay already ended (cancelled);
  /// `onCompletion` runs when the stage completes, if it is still the live stage then. `role`
  /// only gives the stage's subscriber a type of its own (as Combine's operators have one per
  /// input).
  final func subscribe<P: Publisher, Role>(
    _ publisher: P, stage: Int, role: Role.Type,
    onCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void
  ) where P.Output == Downstream.Input {
    guard lock.withLock({ machine.isLive }) else { return }
    publisher.subscribe(
      RelayStage<Downstream, P.Failure, Role>(
        relay: self, stage: stage, onCompletion: onCompletion))
  }

  final func receive(subscription: any Subscription, stage: Int) {
    let (action, subscribeDownstream) = lock.withLock {
      machine.receive(subscription: subscription, stage: stage)
    }
    if subscribeDownstream, let downstream = lock.withLock({ self.downstream }) {
      downstream.receive(subscription: self)
    }
    switch action {
    case .request(let subscription, let demand): subscription.request(demand)
    case .cancel(let subscription): subscription.cancel()
    case .none: break
    }
  }

  final func receive(_ value: Downstream.Input, stage: Int) -> Subscribers.Demand {
    let (verdict, downstream) = lock.withLock {
      let verdict = machine.receiveValue(stage: stage)
      return (verdict, verdict == .deliver ? self.downstream : nil)
    }
    switch verdict {
    case .deliver: break
    case .unwanted:
      unwantedValue(stage: stage)
      return .none
    case .ignore: return .none
    }
    guard let downstream else { return .none }
    let more = downstream.receive(value)
    guard more > 0 else { return .none }
    let (isCurrent, subscription) = lock.withLock { machine.addDemand(more, stage: stage) }
    guard isCurrent else { return .none }
    guard requestsReturnedDemand else { return more }
    subscription?.request(more)
    return .none
  }

  /// A stage completed: returns whether it was the live stage (the relay then waits for stage
  /// `stage + 1`); otherwise the subclass hears of it through
  /// ``unexpectedCompletion(_:stage:isFailure:)``.
  final func completeStage(_ stage: Int, isFailure: Bool) -> Bool {
    let acceptEarly = acceptsCompletionBeforeSubscription
    let result = lock.withLock { machine.completeStage(stage, acceptEarly: acceptEarly) }
    guard case .live = result else {
      unexpectedCompletion(result, stage: stage, isFailure: isFailure)
      return false
    }
    return true
  }

  /// Ends the relay: delivers `completion` unless it was cancelled meanwhile, and releases the
  /// downstream.
  final func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard machine.terminate() else { return nil }
      defer { self.downstream = nil }
      return self.downstream
    }
    downstream?.receive(completion: completion)
  }

  // MARK: Subscription

  final func request(_ demand: Subscribers.Demand) {
    lock.withLock { machine.request(demand) }?.request(demand)
  }

  final func cancel() {
    let (subscription, downstream) = lock.withLock {
      () -> ((any Subscription)?, Downstream?) in
      defer { self.downstream = nil }
      return (machine.cancel(), self.downstream)
    }
    subscription?.cancel()
    didCancel()
    withExtendedLifetime(downstream) {}  // Released here, without the lock.
  }
}

/// The subscriber a ``RelayStorage`` attaches to one stage: it tags the stage's events with
/// its number and hands them to the relay. As in Combine, it is also a subscription (requests
/// and cancels go to the relay) and shares the relay's combine identifier. `Role` gives each
/// kind of stage (a prefix, a suffix, a handler's publisher) a type of its own.
final class RelayStage<Downstream: Subscriber, Failure: Error, Role>: Subscriber, Subscription,
  CustomStringConvertible
{
  typealias Input = Downstream.Input

  let relay: RelayStorage<Downstream>
  let stage: Int
  let onCompletion: (Subscribers.Completion<Failure>) -> Void

  init(
    relay: RelayStorage<Downstream>, stage: Int,
    onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
  ) {
    self.relay = relay
    self.stage = stage
    self.onCompletion = onCompletion
  }

  var description: String { relay.description }

  var combineIdentifier: CombineIdentifier { relay.combineIdentifier }

  func receive(subscription: any Subscription) {
    relay.receive(subscription: subscription, stage: stage)
  }

  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    relay.receive(input, stage: stage)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let isFailure: Bool
    if case .failure = completion { isFailure = true } else { isFailure = false }
    if relay.completeStage(stage, isFailure: isFailure) { onCompletion(completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    relay.request(demand)
  }

  func cancel() {
    relay.cancel()
  }
}

// What Combine shows of the relay's subscription and of its stages' subscribers: the name, and
// the children below, computed when asked for.
extension RelayStorage: CustomReflectable, CustomPlaygroundDisplayConvertible {
  var customMirror: Mirror {
    guard mirrorsDemand else { return Mirror(self, children: [:]) }
    let (downstream, state) = lock.withLock { (self.downstream, machine.state) }
    var demand = Subscribers.Demand.none
    switch state {
    case .awaitingSubscription(_, let pending), .connected(_, _, let pending): demand = pending
    default: break
    }
    return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
  }

  var playgroundDescription: Any { description }
}

extension RelayStage: CustomReflectable, CustomPlaygroundDisplayConvertible {
  var customMirror: Mirror { Mirror(self, children: relay.customMirror.children) }

  var playgroundDescription: Any { description }
}

/// The ``RelayStage`` role of the first upstream of a relay (a prefix, the upstream of `catch`,
/// every attempt of `retry`).
enum RelayFirstStage {}

/// The ``RelayStage`` role of the publisher a relay moves on to (a suffix, the publisher a
/// `catch` handler returns).
enum RelayNextStage {}
