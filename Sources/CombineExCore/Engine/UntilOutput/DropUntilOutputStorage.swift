/// `drop(untilOutputFrom:)`'s subscription: the subscriber of the upstream, the downstream's
/// subscription, and (through ``Trigger``) the subscriber of the second publisher. It runs a
/// ``DropUntilOutputStateMachine`` under its lock and performs what the transitions return
/// after releasing it.
///
/// Not on the ``OperatorDriver``: the driver has one input, and this operator's second one
/// sends from any thread, concurrently with the upstream. Upstream values are delivered as the
/// upstream sends them (serially), and the trigger's value only switches the gate, so the
/// downstream is never called twice at once: a completion from the trigger comes only before
/// its value, while no value is delivered.
///
/// As Combine's, it shows itself and its trigger's subscriber in a debugger as
/// "DropUntilOutput", with no children.
// @unchecked Sendable: `machine` and `downstream` are guarded by `lock`.
final class DropUntilOutputStorage<Downstream: Subscriber>: Subscriber, Subscription,
  NamedReflection, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure
  typealias Machine = DropUntilOutputStateMachine<Failure>

  private let lock = Lock()
  private var machine = Machine()
  /// Released when the completion is handed out or the downstream cancels.
  private var downstream: Downstream?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "DropUntilOutput" }

  /// As in Combine: hands the downstream its subscription, then subscribes `trigger` (which is
  /// asked for one value) unless the operator ended meanwhile, then `upstream`, even if it
  /// ended (its subscription is then cancelled when it arrives).
  func start<Upstream: Publisher, Other: Publisher>(upstream: Upstream, trigger other: Other)
  where Upstream.Output == Input, Upstream.Failure == Failure, Other.Failure == Failure {
    lock.withLock { downstream }?.receive(subscription: self)
    if lock.withLock({ machine.isLive }) { other.subscribe(Trigger<Other.Output>(storage: self)) }
    upstream.subscribe(self)
  }

  // MARK: Upstream

  func receive(subscription: any Subscription) {
    guard let demand = lock.withLock({ machine.upstreamSubscribed(subscription) }) else {
      subscription.cancel()
      return
    }
    if demand > .none { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let (admitted, downstream) = lock.withLock { (machine.admitValue(), self.downstream) }
    guard admitted, let downstream else { return .none }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    run { $0.upstreamCompleted(completion) }
  }

  // MARK: Trigger

  /// The subscriber of the second publisher: it hands the publisher's events to the storage.
  struct Trigger<Input>: Subscriber, NamedReflection {
    typealias Failure = Downstream.Failure

    let storage: DropUntilOutputStorage

    var combineIdentifier: CombineIdentifier { CombineIdentifier(storage) }

    var description: String { storage.description }

    func receive(subscription: any Subscription) {
      if storage.lock.withLock({ storage.machine.triggerSubscribed(subscription) }) {
        subscription.request(.max(1))
      } else {
        subscription.cancel()
      }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      storage.lock.withLock { storage.machine.triggerSent() }
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      storage.run { $0.triggerCompleted(completion) }
    }
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { machine.request(demand) }?.request(demand)
  }

  func cancel() {
    run { $0.cancel() }
  }

  // MARK: Performing actions (never under the lock)

  /// Runs a transition under the lock, then performs its action: cancels first, then the
  /// delivery. The downstream taken out is released on return.
  private func run(_ body: (inout Machine) -> Machine.Action) {
    let (action, downstream) = lock.withLock { () -> (Machine.Action, Downstream?) in
      let action = body(&machine)
      guard action.releasesDownstream else { return (action, nil) }
      defer { self.downstream = nil }
      return (action, self.downstream)
    }
    action.cancelUpstream?.cancel()
    action.cancelTrigger?.cancel()
    if let completion = action.deliver { downstream?.receive(completion: completion) }
  }
}
