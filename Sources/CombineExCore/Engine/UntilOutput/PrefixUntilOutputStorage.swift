/// `prefix(untilOutputFrom:)`'s subscription: the subscriber of the upstream, the downstream's
/// subscription, and (through ``Trigger``) the subscriber of the second publisher. It runs a
/// ``PrefixUntilOutputStateMachine`` under its lock and performs what the transitions return
/// after releasing it.
///
/// Not on the ``OperatorDriver``: the driver has one input, and this operator's second one ends
/// it from any thread, possibly while an upstream value is being delivered (the machine then
/// keeps the `.finished` until that delivery returns).
///
/// `@usableFromInline`, with its machine, so that it is specialized at the operator's
/// `receive(subscriber:)`; the upstream and the downstream reach it through protocols (a
/// generic class's unspecialized witnesses, where every generic type costs a metadata lookup),
/// so the protocol methods, and the trigger's, only call closures made in the inlined init:
/// ``entries`` (see ``SubscriberEntries``) and the trigger's three.
///
/// As Combine's, neither it nor its trigger's subscriber customizes its description, mirror or
/// playground value: it shows as a plain object of its type.
// @unchecked Sendable: `machine` and `downstream` are guarded by `lock`.
@usableFromInline
final class PrefixUntilOutputStorage<Downstream: Subscriber>: Subscriber, Subscription,
  @unchecked Sendable
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure
  @usableFromInline
  typealias Machine = PrefixUntilOutputStateMachine<Failure>

  /// The entry points of the upstream's and the downstream's events (see the type's comment).
  @usableFromInline
  let entries: SubscriberEntries<PrefixUntilOutputStorage, Input, Failure>
  /// The entry points of the trigger's events, made in `init` as ``entries``: the trigger's
  /// value only ends the operator, and its completion only lets go of it, so neither is passed.
  @usableFromInline
  let triggerSubscriptionEntry: (PrefixUntilOutputStorage, any Subscription) -> Void
  @usableFromInline
  let triggerValueEntry: (PrefixUntilOutputStorage) -> Void
  @usableFromInline
  let triggerCompletionEntry: (PrefixUntilOutputStorage) -> Void

  @usableFromInline
  let lock = Lock()
  /// Read and written only under `lock`, so the runtime's exclusivity check is off.
  @exclusivity(unchecked)
  @usableFromInline
  var machine = Machine()
  /// Released when the completion is handed out or the downstream cancels. Under `lock`.
  @exclusivity(unchecked)
  @usableFromInline
  var downstream: Downstream?

  @inlinable
  init(downstream: Downstream) {
    self.downstream = downstream
    entries = SubscriberEntries(
      subscription: { $0.handle(subscription: $1) },
      value: { $0.handle($1) },
      completion: { $0.handle(completion: $1) },
      request: { $0.handle(request: $1) },
      cancel: { $0.handleCancel() })
    triggerSubscriptionEntry = { $0.handleTrigger(subscription: $1) }
    triggerValueEntry = { $0.handleTriggerValue() }
    triggerCompletionEntry = { $0.handleTriggerCompletion() }
  }

  /// As in Combine: subscribes `trigger` (which is asked for one value), then `upstream`, even
  /// if the trigger ended the operator meanwhile (the upstream's subscription is then cancelled
  /// when it arrives).
  @inlinable
  func start<Upstream: Publisher, Other: Publisher>(upstream: Upstream, trigger other: Other)
  where Upstream.Output == Input, Upstream.Failure == Failure {
    if lock.withLock({ machine.isLive }) {
      other.subscribe(Trigger<Other.Output, Other.Failure>(storage: self))
    }
    upstream.subscribe(self)
  }

  // MARK: Upstream

  @inlinable
  func receive(subscription: any Subscription) { entries.subscription(self, subscription) }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand { entries.value(self, input) }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    entries.completion(self, completion)
  }

  @inlinable
  func handle(subscription: any Subscription) {
    let (kept, downstream) = lock.withLock {
      (machine.upstreamSubscribed(subscription), self.downstream)
    }
    guard kept else {
      subscription.cancel()
      return
    }
    downstream?.receive(subscription: self)
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    let (admitted, downstream) = lock.withLock { (machine.admitValue(), self.downstream) }
    guard admitted else { return .none }
    let demand = downstream?.receive(input) ?? .none
    // An ending decided during the delivery (on another thread, or re-entrantly) waited for it.
    let (ending, released) = transition { $0.delivered() ?? Machine.Action() }
    guard ending.deliver != nil else { return demand }
    perform(ending, released)
    return .none
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    run { $0.upstreamCompleted(completion) }
  }

  // MARK: Trigger

  /// The subscriber of the second publisher: it hands the publisher's events to the storage,
  /// through the storage's trigger entries.
  @usableFromInline
  struct Trigger<Input, TriggerFailure: Error>: Subscriber {
    @usableFromInline
    typealias Failure = TriggerFailure

    @usableFromInline
    let storage: PrefixUntilOutputStorage

    @inlinable
    init(storage: PrefixUntilOutputStorage) {
      self.storage = storage
    }

    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(storage) }

    @inlinable
    func receive(subscription: any Subscription) {
      storage.triggerSubscriptionEntry(storage, subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      storage.triggerValueEntry(storage)
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      storage.triggerCompletionEntry(storage)
    }
  }

  @inlinable
  func handleTrigger(subscription: any Subscription) {
    if lock.withLock({ machine.triggerSubscribed(subscription) }) {
      subscription.request(.max(1))
    } else {
      subscription.cancel()
    }
  }

  @inlinable
  func handleTriggerValue() {
    run { $0.triggerSent() }
  }

  @inlinable
  func handleTriggerCompletion() {
    lock.withLock { machine.triggerCompleted() }
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func request(_ demand: Subscribers.Demand) { entries.request(self, demand) }

  @inlinable
  func cancel() { entries.cancel(self) }

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    lock.withLock { machine.request() }?.request(demand)
  }

  @inlinable
  func handleCancel() {
    run { $0.cancel() }
  }

  // MARK: Performing actions (never under the lock)

  /// Runs `body` on the machine under the lock; returns its action and, if the action releases
  /// the downstream, the downstream (taken out of the storage).
  @inlinable
  func transition(
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
  @inlinable
  func run(_ body: (inout Machine) -> Machine.Action) {
    let (action, downstream) = transition(body)
    perform(action, downstream)
  }

  /// Cancels first, then delivers; the downstream taken out is released on return.
  @inlinable
  func perform(_ action: Machine.Action, _ downstream: Downstream?) {
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
