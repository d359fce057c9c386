/// The subscription of the operators that relay one upstream at a time (Concatenate, Catch,
/// TryCatch, Retry): it owns the ``RelayStateMachine`` and its lock, passes values and demand
/// through, and performs what the machine decides after releasing the lock.
///
/// Subclasses decide what follows each stage: they subscribe a stage with
/// ``subscribe(_:stage:onCompletion:)``, and from its completion handler (called only if that
/// stage was the live one) either subscribe the next stage or end with ``finish(_:)``.
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

  // MARK: Stages

  /// Subscribes `publisher` as stage `stage`, unless the relay already ended (cancelled);
  /// `onCompletion` runs when the stage completes, if it is still the live stage then.
  final func subscribe<P: Publisher>(
    _ publisher: P, stage: Int,
    onCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void
  ) where P.Output == Downstream.Input {
    guard lock.withLock({ machine.isLive }) else { return }
    publisher.receive(
      subscriber: RelayStage(relay: self, stage: stage, onCompletion: onCompletion))
  }

  final func receive(subscription: any Subscription, stage: Int) {
    switch lock.withLock({ machine.receive(subscription: subscription, stage: stage) }) {
    case .request(let subscription, let demand): subscription.request(demand)
    case .cancel(let subscription): subscription.cancel()
    case .none: break
    }
  }

  final func receive(_ value: Downstream.Input, stage: Int) -> Subscribers.Demand {
    let downstream = lock.withLock { machine.receiveValue(stage: stage) ? self.downstream : nil }
    guard let downstream else { return .none }
    let more = downstream.receive(value)
    guard more > 0 else { return .none }
    return lock.withLock { machine.addDemand(more, stage: stage) } ? more : .none
  }

  /// Whether `stage` was the live stage; the relay then waits for stage `stage + 1`.
  final func completeStage(_ stage: Int) -> Bool {
    lock.withLock { machine.completeStage(stage) }
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
    let subscription = lock.withLock { () -> (any Subscription)? in
      downstream = nil
      return machine.cancel()
    }
    subscription?.cancel()
  }
}

/// The subscriber a ``RelayStorage`` attaches to one stage: it tags the stage's events with
/// its number and hands them to the relay.
final class RelayStage<Downstream: Subscriber, Failure: Error>: Subscriber,
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

  func receive(subscription: any Subscription) {
    relay.receive(subscription: subscription, stage: stage)
  }

  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    relay.receive(input, stage: stage)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    if relay.completeStage(stage) { onCompletion(completion) }
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
