import CombineEx

/// The publisher behind ``Effect/run(_:)``: each subscription runs `work` with a subscriber
/// handle that feeds an ``EffectRunSubscription``.
struct EffectRunPublisher<Output, Failure: Error>: Publisher {
  let work: (Effect<Output, Failure>.Subscriber) -> any Cancellable

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = EffectRunSubscription(downstream: subscriber)
    subscriber.receive(subscription: subscription)
    subscription.start(work)
  }
}

/// What an ``Effect/Subscriber`` handle sends to: the subscription, seen without its
/// downstream's type (so that the handle's `@Sendable` closures capture no more generic types
/// than `Output` and `Failure`).
class EffectRunInbox<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: stateless; subclasses say why they are sound.
  func send(_ value: Output) {}
  func send(completion: Subscribers.Completion<Failure>) {}
}

/// Buffers what an effect's work sends until the subscriber asks for it, and delivers it in
/// order, one call at a time, whichever threads send.
///
/// ## State
/// Under `lock`: the values waiting (`buffer`), the completion waiting behind them,
/// the outstanding demand, whether a thread is delivering, and the phase:
/// - `.running`: values and a completion are accepted;
/// - `.completing`: a completion is waiting behind the buffered values; nothing more is
///   accepted;
/// - `.over`: the completion was delivered or the subscriber cancelled; everything is ignored.
///
/// Whoever finds nobody delivering (a send, a request) becomes the deliverer and runs
/// ``drain()``: it takes one event at a time under the lock and delivers it without the lock.
/// Sends and requests that arrive meanwhile (from other threads, or re-entrantly from the
/// subscriber) only update the state; the deliverer picks them up before it stops.
final class EffectRunSubscription<Downstream: Subscriber>: EffectRunInbox<
  Downstream.Input, Downstream.Failure
>, Subscription, @unchecked Sendable
{
  // @unchecked Sendable: every stored property is guarded by `lock`; `downstream` is only called
  // by the thread that set `delivering`.
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  private enum Phase {
    case running
    case completing(Subscribers.Completion<Failure>)
    case over
  }

  private enum Step {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
    case stop
  }

  private let lock = Lock()
  private var downstream: Downstream?
  private var phase = Phase.running
  /// A value leaves it (and is released) as it is handed to the deliverer.
  private var buffer = ValueQueue<Output>()
  private var demand = Subscribers.Demand.none
  private var delivering = false
  /// What cancels the work, once `work` has returned.
  private var cancellable: (any Cancellable)?
  /// Whether the subscriber cancelled (as opposed to the effect completing).
  private var cancelled = false

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// Runs the work and keeps what cancels it, unless the effect is already over.
  func start(_ work: (Effect<Output, Failure>.Subscriber) -> any Cancellable) {
    let returned = work(Effect<Output, Failure>.Subscriber(inbox: self))
    let cancelNow = lock.withLock { () -> Bool? in
      if case .over = phase { return cancelled }
      cancellable = returned
      return nil
    }
    if cancelNow == true { returned.cancel() }
  }

  override func send(_ value: Output) {
    let drains = lock.withLock { () -> Bool in
      guard case .running = phase else { return false }
      buffer.append(value)
      return becomeDeliverer()
    }
    if drains { drain() }
  }

  override func send(completion: Subscribers.Completion<Failure>) {
    let drains = lock.withLock { () -> Bool in
      guard case .running = phase else { return false }
      phase = .completing(completion)
      return becomeDeliverer()
    }
    if drains { drain() }
  }

  func request(_ more: Subscribers.Demand) {
    guard more > .none else { return }
    let drains = lock.withLock { () -> Bool in
      if case .over = phase { return false }
      demand += more
      return becomeDeliverer()
    }
    if drains { drain() }
  }

  func cancel() {
    let toCancel = lock.withLock { () -> (any Cancellable)? in
      if case .over = phase { return nil }
      phase = .over
      cancelled = true
      downstream = nil
      buffer.removeAll()
      defer { cancellable = nil }
      return cancellable
    }
    toCancel?.cancel()
  }

  /// Under `lock`: takes the deliverer role if nobody has it.
  private func becomeDeliverer() -> Bool {
    if delivering { return false }
    delivering = true
    return true
  }

  /// Delivers what can be delivered, one event at a time, then gives the deliverer role up.
  private func drain() {
    while true {
      var released: (any Cancellable)?
      let (step, target) = lock.withLock { () -> (Step, Downstream?) in
        let target = downstream
        switch phase {
        case .over:
          delivering = false
          return (.stop, nil)
        case .running, .completing:
          if demand > .none, let value = buffer.popFirst() {
            demand -= 1
            return (.value(value), target)
          }
          if buffer.isEmpty, case .completing(let completion) = phase {
            phase = .over
            downstream = nil
            released = cancellable
            cancellable = nil
            delivering = false
            return (.completion(completion), target)
          }
          delivering = false
          return (.stop, nil)
        }
      }
      switch step {
      case .value(let value):
        let more = target?.receive(value) ?? .none
        if more > .none {
          lock.withLock { if case .over = phase {} else { demand += more } }
        }
      case .completion(let completion):
        target?.receive(completion: completion)
        withExtendedLifetime(released) {}  // released (an AnyCancellable cancels) after delivery
        return
      case .stop:
        return
      }
    }
  }
}
