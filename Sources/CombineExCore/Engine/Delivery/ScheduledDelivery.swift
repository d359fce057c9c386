import Dispatch
import Synchronization

/// The subscription of `receive(on:)`: it passes the subscriber's requests and cancellation
/// straight to the upstream, and delivers every upstream event (values and the completion) from
/// its own work scheduled on the scheduler, one `schedule(options:_:)` call per event, as
/// Combine does.
///
/// Events keep the upstream's order and reach the downstream one at a time (a
/// ``SerialOutbox``), even on a concurrent scheduler. Combine's demand flow: `receive(_:)`
/// returns `.none`, and the demand the downstream returns from each delivered value is
/// requested from the upstream right after that delivery, even once the upstream has completed
/// (while its completion waits for its turn); the subscriber's own requests stop reaching the
/// upstream once it has completed. Values the upstream sends before its subscription or after
/// its completion are dropped, unscheduled. After `cancel()` returns, nothing more is
/// delivered: scheduled work that runs later finds the outbox closed.
///
/// Not on the ``OperatorDriver``: it delivers from scheduled work, on any thread, through the
/// outbox (the driver delivers on the upstream's thread only); and `receive(on:)` is a hot
/// path, inlinable like the stateless links.
@usableFromInline
final class ScheduledDelivery<Input, Failure: Error, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Failure {
  // @unchecked Sendable: `status` is guarded by `lock`; `phase` is atomic; the outbox is
  // thread-safe; the other properties are constants.
  // The `var`s skip the runtime's exclusivity checks (`@exclusivity(unchecked)`): the lock
  // already makes every access exclusive, and the checks cost more than the work.
  @usableFromInline
  let lock = Lock()
  /// The upstream subscription, kept from its arrival until the completion is delivered (the
  /// demand of the values delivered before it is still requested) or the subscriber cancels.
  @usableFromInline
  @exclusivity(unchecked)
  var status = OperatorStatus.awaitingSubscription
  /// Whether the upstream's events are taken: written under `lock`, read without it by
  /// `receive(_:)`, so a value costs no lock before it is queued.
  @usableFromInline
  let phase = Atomic<ScheduledDeliveryPhase>(.awaitingSubscription)
  @usableFromInline
  let outbox: SerialOutbox<Downstream>
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  let description: String

  /// Creates the subscription.
  @inlinable
  init(
    downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?, name: String
  ) {
    outbox = SerialOutbox(downstream: downstream)
    self.scheduler = scheduler
    self.options = options
    description = name
  }

  // MARK: Subscriber (upstream side)

  @inlinable
  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard status.accept(subscription) else { return false }
      phase.store(.open, ordering: .releasing)
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    // Every delivery goes through the outbox, which tells the subscriber when it has forgotten
    // it (a `sink` then counts nothing per value).
    outbox.start(self, reportingDetach: true)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    // Nothing before the subscription, nothing after the completion or the cancel. (The
    // upstream's calls are serial, so its completion cannot race this check.)
    guard phase.load(ordering: .acquiring) == .open else { return .none }
    if Context.self == ImmediateScheduler.self {
      // The immediate scheduler would run the delivery at once: deliver without scheduling.
      // A value sent from inside a delivery waits for it to return (the outbox).
      outbox.send(.value(input), reportingEach: { requestFromUpstream($0) })
      return .none
    }
    guard outbox.enqueue(.value(input)) else { return .none }
    scheduleDelivery()
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    let live = lock.withLock { () -> Bool in
      guard status.isSubscribed, phase.load(ordering: .relaxed) == .open else { return false }
      phase.store(.ended, ordering: .releasing)
      return true
    }
    guard live, outbox.enqueue(.completion(completion)) else { return }
    scheduleDelivery()
  }

  /// Schedules the delivery of the oldest waiting event.
  @inlinable
  func scheduleDelivery() {
    if Context.self == DispatchQueue.self, options == nil,
      let queue = scheduler as? DispatchQueue
    {
      // `receive(on: queue)`, the usual hop, is `DispatchQueue.schedule(options:_:)`'s `async`,
      // given a block that captures only this object: one allocation per value fewer than a
      // Swift closure around `deliver`, which needs a context of its own. (Not `@Sendable` as
      // written, where the generic parameters would have to be: the queue runs it, as
      // `schedule` would, which is what `receive(on:)` is for; see `UncheckedAction`.)
      let work: @convention(block) () -> Void = { self.deliver() }
      queue.async(execute: unsafeBitCast(work, to: (@Sendable @convention(block) () -> Void).self))
    } else {
      scheduler.schedule(options: options, deliver)
    }
  }

  /// Scheduled work: delivers one event, requesting the demand the downstream returns from a
  /// value right after it; lets go of the upstream once its completion is delivered.
  @inlinable
  func deliver() {
    outbox.deliverOne(reportingEach: { requestFromUpstream($0) })
    guard phase.load(ordering: .acquiring) == .ended, !outbox.isOpen else { return }
    // The completion was delivered (or the subscriber cancelled): the subscription is released
    // here, outside the lock.
    let released = lock.withLock { status.terminate() }
    _ = released
  }

  /// Requests from the upstream the demand the downstream returned from a delivered value.
  @inlinable
  func requestFromUpstream(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    lock.withLock { status.upstream }?.request(demand)
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    // Once the upstream has completed, it has nothing more to send.
    lock.withLock { phase.load(ordering: .relaxed) == .open ? status.upstream : nil }?
      .request(demand)
  }

  @inlinable
  func cancel() {
    let (held, live) = lock.withLock { () -> ((any Subscription)?, Bool) in
      let live = phase.exchange(.ended, ordering: .acquiringAndReleasing) == .open
      return (status.terminate(), live)
    }
    outbox.close()
    // An upstream that has completed is not cancelled; its subscription is only released.
    if live { held?.cancel() }
  }
}

/// Where the upstream of a ``ScheduledDelivery`` is.
@usableFromInline
enum ScheduledDeliveryPhase: UInt8, AtomicRepresentable {
  /// No subscription yet: values are dropped.
  case awaitingSubscription
  /// Subscribed: values are scheduled.
  case open
  /// Completed or cancelled: values are dropped.
  case ended
}

extension ScheduledDelivery: NamedReflection {}

// It lets go of its upstream subscription on cancel and on completion, so a subject can hold it
// without reference counting per value.
extension ScheduledDelivery: SubscriptionReleasing {}
