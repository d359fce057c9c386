/// `prefix(untilOutputFrom:)`'s subscription: the subscriber of the upstream, the downstream's
/// subscription, and (through ``Trigger``) the subscriber of the second publisher. It runs a
/// ``PrefixUntilOutputStateMachine`` under its lock and performs what the transitions return
/// after releasing it.
///
/// Not on the ``OperatorDriver``: the driver has one input, and this operator's second one ends
/// it from any thread, possibly while an upstream value is being delivered (the machine then
/// keeps the `.finished` until that delivery returns).
///
/// As Combine's, neither it nor its trigger's subscriber customizes its description, mirror or
/// playground value: it shows as a plain object of its type.
// @unchecked Sendable: `machine` and `downstream` are guarded by `lock`.
final class PrefixUntilOutputStorage<Downstream: Subscriber>: Subscriber, Subscription,
  @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure
  typealias Machine = PrefixUntilOutputStateMachine<Failure>

  private let lock = Lock()
  private var machine = Machine()
  /// Released when the completion is handed out or the downstream cancels.
  private var downstream: Downstream?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// As in Combine: subscribes `trigger` (which is asked for one value), then `upstream`, even
  /// if the trigger ended the operator meanwhile (the upstream's subscription is then cancelled
  /// when it arrives).
  func start<Upstream: Publisher, Other: Publisher>(upstream: Upstream, trigger other: Other)
  where Upstream.Output == Input, Upstream.Failure == Failure {
    if lock.withLock({ machine.isLive }) {
      other.subscribe(Trigger<Other.Output, Other.Failure>(storage: self))
    }
    upstream.subscribe(self)
  }

  // MARK: Upstream

  func receive(subscription: any Subscription) {
    let (kept, downstream) = lock.withLock {
      (machine.upstreamSubscribed(subscription), self.downstream)
    }
    guard kept else {
      subscription.cancel()
      return
    }
    downstream?.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let (admitted, downstream) = lock.withLock { (machine.admitValue(), self.downstream) }
    guard admitted else { return .none }
    let demand = downstream?.receive(input) ?? .none
    // An ending decided during the delivery (on another thread, or re-entrantly) waited for it.
    let (ending, released) = transition { $0.delivered() ?? Machine.Action() }
    guard ending.deliver != nil else { return demand }
    perform(ending, released)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    run { $0.upstreamCompleted(completion) }
  }

  // MARK: Trigger

  /// The subscriber of the second publisher: it hands the publisher's events to the storage.
  struct Trigger<Input, TriggerFailure: Error>: Subscriber {
    typealias Failure = TriggerFailure

    let storage: PrefixUntilOutputStorage

    var combineIdentifier: CombineIdentifier { CombineIdentifier(storage) }

    func receive(subscription: any Subscription) {
      if storage.lock.withLock({ storage.machine.triggerSubscribed(subscription) }) {
        subscription.request(.max(1))
      } else {
        subscription.cancel()
      }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      storage.run { $0.triggerSent() }
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      storage.lock.withLock { storage.machine.triggerCompleted() }
    }
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { machine.request() }?.request(demand)
  }

  func cancel() {
    run { $0.cancel() }
  }

  // MARK: Performing actions (never under the lock)

  /// Runs `body` on the machine under the lock; returns its action and, if the action releases
  /// the downstream, the downstream (taken out of the storage).
  private func transition(
    _ body: (inout Machine) -> Machine.Action
  ) -> (Machine.Action, Downstream?) {
    lock.withLock {
      let action = body(&machine)
      guard action.releasesDownstream else { return (action, nil) }
      defer { downstream = nil }
      return (action, downstream)
    }
  }

  /// Runs a transition and performs its action.
  private func run(_ body: (inout Machine) -> Machine.Action) {
    let (action, downstream) = transition(body)
    perform(action, downstream)
  }

  /// Cancels first, then delivers; the downstream taken out is released on return.
  private func perform(_ action: Machine.Action, _ downstream: Downstream?) {
    action.cancelUpstream?.cancel()
    action.cancelTrigger?.cancel()
    guard let completion = action.deliver, let downstream else { return }
    if action.subscribesDownstream {
      downstream.receive(subscription: self)
      // A cancel from inside `receive(subscription:)`: nothing follows it.
      if lock.withLock({ machine.isCancelled }) { return }
    }
    downstream.receive(completion: completion)
  }
}
