import Dispatch

/// The subscription of `receive(on:)` and `delay(for:)`: it passes demand and cancellation
/// straight to the upstream, and delivers every upstream event (values and the completion)
/// from work scheduled on the scheduler: at once for `receive(on:)`, after `delay` for
/// `delay(for:)`.
///
/// Events keep the upstream's order and reach the downstream one at a time (a
/// ``SerialOutbox``), even on a concurrent scheduler. The demand the downstream returns from a
/// delivered value is requested from the upstream. After `cancel()` returns, nothing more is
/// delivered: scheduled work that runs later finds the outbox closed.
///
/// Not on the ``OperatorDriver``: it delivers from scheduled work, on any thread, through the
/// outbox (the driver delivers on the upstream's thread only); and `receive(on:)` is a hot
/// path, inlinable like the stateless links.
@usableFromInline
final class ScheduledDelivery<Input, Failure: Error, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Failure {
  // @unchecked Sendable: `status` is guarded by `lock`; the outbox is thread-safe; the other
  // properties are constants.
  // The `var`s skip the runtime's exclusivity checks (`@exclusivity(unchecked)`): the lock
  // already makes every access exclusive, and the checks cost more than the work.
  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var status = OperatorStatus.awaitingSubscription
  @usableFromInline
  let outbox: SerialOutbox<Downstream>
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  let delay:
    (interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride)?
  @usableFromInline
  let description: String

  /// Creates the subscription; `delay` is `nil` for `receive(on:)`.
  @inlinable
  init(
    downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?,
    delay: (
      interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride
    )?,
    name: String
  ) {
    outbox = SerialOutbox(downstream: downstream)
    self.scheduler = scheduler
    self.options = options
    self.delay = delay
    description = name
  }

  // MARK: Subscriber (upstream side)

  @inlinable
  func receive(subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else {
      subscription.cancel()
      return
    }
    // Every delivery goes through the outbox, which tells the subscriber when it has forgotten
    // it (a `sink` then counts nothing per value).
    outbox.start(self, reportingDetach: true)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    // No status check: the outbox refuses values once cancelled, and drops values that an
    // upstream sends after its completion (the completion closes it when delivered).
    if delay == nil, Context.self == ImmediateScheduler.self {
      // The immediate scheduler would run the delivery at once: deliver without scheduling,
      // and hand the subscriber's demand straight back to the upstream.
      return outbox.send(.value(input))
    }
    guard outbox.enqueue(.value(input)) else { return .none }
    scheduleDelivery()
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    let live = lock.withLock { () -> Bool in
      guard status.isSubscribed else { return false }
      status = .terminated
      return true
    }
    guard live, outbox.enqueue(.completion(completion)) else { return }
    scheduleDelivery()
  }

  /// Schedules the delivery of the oldest waiting event.
  @inlinable
  func scheduleDelivery() {
    if let delay {
      scheduler.schedule(
        after: scheduler.now.advanced(by: delay.interval), tolerance: delay.tolerance,
        options: options, deliver)
    } else if Context.self == DispatchQueue.self, options == nil,
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

  /// Scheduled work: delivers one event, and requests the demand the downstream returned.
  @inlinable
  func deliver() {
    let demand = outbox.deliverOne()
    guard demand > .none else { return }
    lock.withLock { status.upstream }?.request(demand)
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.upstream }?.request(demand)
  }

  @inlinable
  func cancel() {
    let upstream = lock.withLock { status.terminate() }
    outbox.close()
    upstream?.cancel()
  }
}

extension ScheduledDelivery: NamedReflection {}

// It lets go of its upstream subscription on cancel and on completion, so a subject can hold it
// without reference counting per value.
extension ScheduledDelivery: SubscriptionReleasing {}
