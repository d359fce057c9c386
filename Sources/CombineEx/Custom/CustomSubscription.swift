import CombineExCore

/// The subscription a ``Publishers/Custom`` publisher hands its subscriber, and the handler it
/// hands its closure: it owns the ``CustomSubscriptionStateMachine`` and the lock guarding it,
/// runs each call through the machine under the lock, and delivers what the machine returns
/// after releasing it.
final class CustomSubscription<Downstream: Subscriber>: Subscription,
  Publishers.CustomSubscriptionHandler, CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `machine` and `downstream` are guarded by `lock`; the properties are
  // thread-safe; the downstream is only called by the one caller the machine makes the
  // deliverer.
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure
  private typealias Machine = CustomSubscriptionStateMachine<Output, Failure>

  private let lock = Lock()
  private var machine = Machine()
  /// Released when the completion is handed out or the subscriber cancels.
  private var downstream: Downstream?

  private let mutableCancelled = MutableProperty(false)
  private let mutableDemand = MutableProperty(Subscribers.Demand.none)

  let cancelled: Property<Bool>
  let demand: Property<Subscribers.Demand>

  init(downstream: Downstream) {
    self.downstream = downstream
    cancelled = Property(mutableCancelled)
    demand = Property(mutableDemand)
  }

  var description: String { "Custom" }

  /// Whether the subscriber cancelled.
  var isCancelled: Bool { lock.withLock { machine.isCancelled } }

  // MARK: CustomSubscriptionHandler

  func sendValue(_ value: Output) {
    perform { $0.send(value) }
  }

  func sendCompletion(_ completion: Subscribers.Completion<Failure>) {
    perform { $0.complete(completion) }
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    perform { $0.request(demand) }
  }

  func cancel() {
    let (first, released) = lock.withLock { () -> (Bool, Downstream?) in
      defer { downstream = nil }
      return (machine.cancel(), downstream)
    }
    // The subscriber is released here, outside the lock.
    _ = released
    guard first else { return }
    publishDemand()
    mutableCancelled.value = true
  }

  // MARK: Delivery (never under the lock)

  /// Runs a transition; if it makes the caller the deliverer, delivers until there is nothing
  /// left to deliver.
  private func perform(_ transition: (inout Machine) -> Machine.Step) {
    var (step, target) = lock.withLock { locked(transition(&machine)) }
    while let downstream = target {
      switch step {
      case .none:
        target = nil
      case .value(let value):
        let more = downstream.receive(value)
        (step, target) = lock.withLock { locked(machine.didDeliver(requesting: more)) }
      case .completion(let completion):
        downstream.receive(completion: completion)
        target = nil
      }
    }
    publishDemand()
  }

  /// Pairs a step with the subscriber to deliver it to (released from `downstream` when the
  /// step is the completion). Called with the lock held.
  private func locked(_ step: Machine.Step) -> (Machine.Step, Downstream?) {
    switch step {
    case .none:
      return (step, nil)
    case .value:
      return (step, downstream)
    case .completion:
      defer { downstream = nil }
      return (step, downstream)
    }
  }

  /// Shows the machine's current demand through `demand`. The property's `modify` reads the
  /// machine again if another thread set the property meanwhile, so the last caller always
  /// leaves the latest demand showing.
  private func publishDemand() {
    let current = lock.withLock { machine.visibleDemand }
    guard mutableDemand.value != current else { return }
    mutableDemand.modify { $0 = lock.withLock { machine.visibleDemand } }
  }
}
