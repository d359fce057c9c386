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
/// `@usableFromInline`, with its machine, so that it is specialized at the operator's
/// `receive(subscriber:)`; the upstream and the downstream reach it through protocols (a
/// generic class's unspecialized witnesses, where every generic type costs a metadata lookup),
/// so the protocol methods, and the trigger's, only call closures made in the inlined init:
/// ``entries`` (see ``SubscriberEntries``) and the trigger's three.
///
/// As Combine's, it shows itself and its trigger's subscriber in a debugger as
/// "DropUntilOutput", with no children.
// @unchecked Sendable: `machine` and `downstream` are guarded by `lock`.
@usableFromInline
final class DropUntilOutputStorage<Downstream: Subscriber>: Subscriber, Subscription,
  NamedReflection, @unchecked Sendable
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure
  @usableFromInline
  typealias Machine = DropUntilOutputStateMachine<Failure>

  /// The entry points of the upstream's and the downstream's events (see the type's comment).
  @usableFromInline
  let entries: SubscriberEntries<DropUntilOutputStorage, Input, Failure>
  /// The entry points of the trigger's events, made in `init` as ``entries``: the trigger's
  /// value only opens the gate, so it is not passed.
  @usableFromInline
  let triggerSubscriptionEntry: (DropUntilOutputStorage, any Subscription) -> Void
  @usableFromInline
  let triggerValueEntry: (DropUntilOutputStorage) -> Void
  @usableFromInline
  let triggerCompletionEntry: (DropUntilOutputStorage, Subscribers.Completion<Failure>) -> Void

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
    triggerCompletionEntry = { $0.handleTrigger(completion: $1) }
  }

  @usableFromInline
  var description: String { "DropUntilOutput" }

  /// As in Combine: hands the downstream its subscription, then subscribes `trigger` (which is
  /// asked for one value) unless the operator ended meanwhile, then `upstream`, even if it
  /// ended (its subscription is then cancelled when it arrives).
  @inlinable
  func start<Upstream: Publisher, Other: Publisher>(upstream: Upstream, trigger other: Other)
  where Upstream.Output == Input, Upstream.Failure == Failure, Other.Failure == Failure {
    lock.withLock { downstream }?.receive(subscription: self)
    if lock.withLock({ machine.isLive }) { other.subscribe(Trigger<Other.Output>(storage: self)) }
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
    guard let demand = lock.withLock({ machine.upstreamSubscribed(subscription) }) else {
      subscription.cancel()
      return
    }
    if demand > .none { subscription.request(demand) }
  }

  @inlinable
  func handle(_ input: Input) -> Subscribers.Demand {
    let (admitted, downstream) = lock.withLock { (machine.admitValue(), self.downstream) }
    guard admitted, let downstream else { return .none }
    return downstream.receive(input)
  }

  @inlinable
  func handle(completion: Subscribers.Completion<Failure>) {
    run { $0.upstreamCompleted(completion) }
  }

  // MARK: Trigger

  /// The subscriber of the second publisher: it hands the publisher's events to the storage,
  /// through the storage's trigger entries.
  @usableFromInline
  struct Trigger<Input>: Subscriber, NamedReflection {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let storage: DropUntilOutputStorage

    @inlinable
    init(storage: DropUntilOutputStorage) {
      self.storage = storage
    }

    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(storage) }

    @usableFromInline
    var description: String { storage.description }

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
      storage.triggerCompletionEntry(storage, completion)
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
    lock.withLock { machine.triggerSent() }
  }

  @inlinable
  func handleTrigger(completion: Subscribers.Completion<Failure>) {
    run { $0.triggerCompleted(completion) }
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func request(_ demand: Subscribers.Demand) { entries.request(self, demand) }

  @inlinable
  func cancel() { entries.cancel(self) }

  @inlinable
  func handle(request demand: Subscribers.Demand) {
    lock.withLock { machine.request(demand) }?.request(demand)
  }

  @inlinable
  func handleCancel() {
    run { $0.cancel() }
  }

  // MARK: Performing actions (never under the lock)

  /// Runs a transition under the lock, then performs its action: cancels first, then the
  /// delivery. The downstream taken out is released on return.
  @inlinable
  func run(_ body: (inout Machine) -> Machine.Action) {
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
