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
///
/// The path a subscription takes (the initializer, subscribing a stage, the stages' events,
/// the end) is inlinable, so that it is specialized where the operator's
/// `receive(subscriber:)` is; the stages' events, which an upstream calls through the
/// `Subscriber` protocol, reach it through the entry closures of ``RelayStage`` (issue 30).
@usableFromInline
class RelayStorage<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: `machine` and `downstream` are guarded by `lock`; subclasses guard
  // their own mutable state with `lock` too.
  @usableFromInline
  let lock = Lock()
  /// Read and written only under `lock`, so the runtime's exclusivity check, which would cost
  /// a call at every access, is off (as for `downstream`).
  @usableFromInline
  @exclusivity(unchecked)
  var machine = RelayStateMachine()
  /// The downstream, in the context of a closure that delivers to it (see ``RelayDownstream``);
  /// released when the completion is delivered or the downstream cancels.
  @usableFromInline
  @exclusivity(unchecked)
  var downstream: RelayDownstream?

  @inlinable
  init(downstream: Downstream) {
    self.downstream = RelayDownstream { event, payload in
      switch event {
      case .subscription(let subscription):
        downstream.receive(subscription: subscription)
      case .value:
        return downstream.receive(
          payload.unsafelyUnwrapped.assumingMemoryBound(to: Downstream.Input.self).pointee)
      case .completion:
        downstream.receive(
          completion: payload.unsafelyUnwrapped.assumingMemoryBound(
            to: Subscribers.Completion<Downstream.Failure>.self
          ).pointee)
      case .reflect:
        payload.unsafelyUnwrapped.assumingMemoryBound(to: Any.self).pointee =
          Optional(downstream) as Any
      }
      return .none
    }
  }

  @usableFromInline
  var description: String { "Relay" }

  /// Whether `customMirror` shows the downstream and its outstanding demand, as Combine's
  /// Catch and TryCatch do (the others show no children).
  var mirrorsDemand: Bool { false }

  // MARK: Policies (subclasses override; called without the lock)

  /// The live stage sent a value nobody asked for. Default: it is ignored.
  @usableFromInline
  func unwantedValue(stage: Int) {}

  /// Whether a stage's completion that comes before its subscription counts (`retry`), rather
  /// than being reported to ``unexpectedCompletion(_:stage:isFailure:)``. Default: `false`.
  @usableFromInline
  var acceptsCompletionBeforeSubscription: Bool { false }

  /// A stage completed before its subscription, or an earlier stage completed again. Default:
  /// ignored.
  @usableFromInline
  func unexpectedCompletion(
    _ kind: RelayStateMachine.StageCompletion, stage: Int, isFailure: Bool
  ) {}

  /// Whether the demand the downstream returns for a value is requested from the stage's
  /// subscription (`retry`, as in Combine) rather than returned from the stage's `receive`.
  /// Default: `false`.
  @usableFromInline
  var requestsReturnedDemand: Bool { false }

  /// The downstream cancelled; called after the live stage was cancelled, without the lock, so
  /// that a subclass releases what it keeps for later stages. Default: nothing.
  func didCancel() {}

  // MARK: Stages

  /// Subscribes `publisher` as stage `stage`, unless the relay already ended (cancelled);
  /// `onCompletion` runs when the stage completes, if it is still the live stage then. `role`
  /// only gives the stage's subscriber a type of its own (as Combine's operators have one per
  /// input).
  @inlinable
  final func subscribe<P: Publisher, Role>(
    _ publisher: P, stage: Int, role: Role.Type,
    onCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void
  ) where P.Output == Downstream.Input {
    guard lock.withLock({ machine.isLive }) else { return }
    publisher.subscribe(
      RelayStage<Downstream, P.Failure, Role>(
        relay: self, stage: stage, onCompletion: onCompletion))
  }

  @inlinable
  final func receive(subscription: any Subscription, stage: Int) {
    let (action, subscribeDownstream) = lock.withLock {
      machine.receive(subscription: subscription, stage: stage)
    }
    if subscribeDownstream, let downstream = lock.withLock({ self.downstream }) {
      _ = downstream.deliver(.subscription(self), nil)
    }
    switch action {
    case .request(let subscription, let demand): subscription.request(demand)
    case .cancel(let subscription): subscription.cancel()
    case .none: break
    }
  }

  @inlinable
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
    var value = value
    let more = withUnsafeMutablePointer(to: &value) {
      downstream.deliver(.value, UnsafeMutableRawPointer($0))
    }
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
  @inlinable
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
  @inlinable
  final func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let downstream = lock.withLock { () -> RelayDownstream? in
      guard machine.terminate() else { return nil }
      defer { self.downstream = nil }
      return self.downstream
    }
    guard let downstream else { return }
    var completion = completion
    _ = withUnsafeMutablePointer(to: &completion) {
      downstream.deliver(.completion, UnsafeMutableRawPointer($0))
    }
  }

  // MARK: Subscription

  @usableFromInline
  final func request(_ demand: Subscribers.Demand) {
    lock.withLock { machine.request(demand) }?.request(demand)
  }

  @usableFromInline
  final func cancel() {
    let (subscription, downstream) = lock.withLock {
      () -> ((any Subscription)?, RelayDownstream?) in
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
///
/// An upstream calls it through the `Subscriber` protocol, which reaches the class's
/// unspecialized code: its events only call the ``entries`` made in its inlinable initializer
/// (at the relay's `subscribe`), which are the specialized code and capture nothing.
@usableFromInline
final class RelayStage<Downstream: Subscriber, Failure: Error, Role>: Subscriber, Subscription,
  CustomStringConvertible
{
  @usableFromInline
  typealias Input = Downstream.Input

  @usableFromInline
  let relay: RelayStorage<Downstream>
  @usableFromInline
  let stage: Int
  @usableFromInline
  let onCompletion: (Subscribers.Completion<Failure>) -> Void
  /// See the type's comment.
  @usableFromInline
  let entries: SubscriberEntries<RelayStage, Input, Failure>

  @inlinable
  init(
    relay: RelayStorage<Downstream>, stage: Int,
    onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
  ) {
    self.relay = relay
    self.stage = stage
    self.onCompletion = onCompletion
    entries = SubscriberEntries(
      subscription: { $0.relay.receive(subscription: $1, stage: $0.stage) },
      value: { $0.relay.receive($1, stage: $0.stage) },
      completion: { $0.handle(completion: $1) },
      request: { $0.relay.request($1) },
      cancel: { $0.relay.cancel() })
  }

  @usableFromInline
  var description: String { relay.description }

  @usableFromInline
  var combineIdentifier: CombineIdentifier { relay.combineIdentifier }

  @inlinable
  func receive(subscription: any Subscription) {
    entries.subscription(self, subscription)
  }

  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    entries.value(self, input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    entries.completion(self, completion)
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    let isFailure: Bool
    if case .failure = completion { isFailure = true } else { isFailure = false }
    if relay.completeStage(stage, isFailure: isFailure) { onCompletion(completion) }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    entries.request(self, demand)
  }

  @inlinable
  func cancel() {
    entries.cancel(self)
  }
}

// What Combine shows of the relay's subscription and of its stages' subscribers: the name, and
// the children below, computed when asked for.
extension RelayStorage: CustomReflectable, CustomPlaygroundDisplayConvertible {
  @usableFromInline
  var customMirror: Mirror {
    guard mirrorsDemand else { return Mirror(self, children: [:]) }
    let (downstream, state) = lock.withLock { (self.downstream, machine.state) }
    var demand = Subscribers.Demand.none
    switch state {
    case .awaitingSubscription(_, let pending), .connected(_, _, let pending): demand = pending
    default: break
    }
    // As Combine shows it: an optional of the subscriber, `nil` once released.
    var shown: Any = Downstream?.none as Any
    if let downstream {
      _ = withUnsafeMutablePointer(to: &shown) {
        downstream.deliver(.reflect, UnsafeMutableRawPointer($0))
      }
    }
    return Mirror(self, children: ["downstream": shown, "demand": demand])
  }

  @usableFromInline
  var playgroundDescription: Any { description }
}

extension RelayStage: CustomReflectable, CustomPlaygroundDisplayConvertible {
  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: relay.customMirror.children) }

  @usableFromInline
  var playgroundDescription: Any { description }
}

/// The ``RelayStage`` role of the first upstream of a relay (a prefix, the upstream of `catch`,
/// every attempt of `retry`).
@usableFromInline
enum RelayFirstStage {}

/// The ``RelayStage`` role of the publisher a relay moves on to (a suffix, the publisher a
/// `catch` handler returns).
@usableFromInline
enum RelayNextStage {}

/// A relay's downstream, kept in the context of a closure made when the relay is created, so
/// that ``RelayStorage`` has no stored property of a generic type: the code that still runs
/// unspecialized (its deinitializer, its `request` and `cancel` reached through the
/// `Subscription` witnesses, and the whole relay for `retry` and `append`, which are not
/// inlinable) would look up every `Optional<Downstream>` it read, moved or destroyed in the
/// runtime's metadata cache, about 40% of subscribing to `catch` before it was inlinable
/// (issue 30). The event's generic payload (a value, a completion, the mirror's slot) travels
/// as a pointer to it.
///
/// A struct around the closure, not the bare closure: moved out of the lock as a generic
/// `Result` (`Lock.withLock`), a bare closure is re-abstracted, which allocates a thunk each
/// time.
@usableFromInline
struct RelayDownstream {
  /// Performs the event on the downstream.
  @usableFromInline
  let deliver: (RelayDownstreamEvent, UnsafeMutableRawPointer?) -> Subscribers.Demand

  @inlinable
  init(deliver: @escaping (RelayDownstreamEvent, UnsafeMutableRawPointer?) -> Subscribers.Demand) {
    self.deliver = deliver
  }
}

/// What a ``RelayDownstream`` does.
@usableFromInline
enum RelayDownstreamEvent {
  /// Hand the downstream its subscription.
  case subscription(any Subscription)
  /// Deliver the value the payload points to (a `Downstream.Input`); returns the demand.
  case value
  /// Deliver the completion the payload points to.
  case completion
  /// Store the downstream, as an optional, in the `Any` the payload points to (the mirror).
  case reflect
}
