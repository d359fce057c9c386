/// The subscription of `receive(on:)` and `delay(for:)`: it passes demand and cancellation
/// straight to the upstream, and delivers every upstream event (values and the completion)
/// from work scheduled on the scheduler: at once for `receive(on:)`, after `delay` for
/// `delay(for:)`.
///
/// Events keep the upstream's order and reach the downstream one at a time (a
/// ``SerialOutbox``), even on a concurrent scheduler. The demand the downstream returns from a
/// delivered value is requested from the upstream. After `cancel()` returns, nothing more is
/// delivered: scheduled work that runs later finds the outbox closed.
final class ScheduledDelivery<Input, Failure: Error, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Failure {
  // @unchecked Sendable: `status` is guarded by `lock`; the outbox is thread-safe; the other
  // properties are constants.
  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private let outbox: SerialOutbox<Downstream>
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let delay:
    (interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride)?
  let description: String

  /// Creates the subscription; `delay` is `nil` for `receive(on:)`.
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

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = status else { return false }
      status = .subscribed(subscription)
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    outbox.start(self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed }), outbox.enqueue(.value(input)) else {
      return .none
    }
    scheduleDelivery()
    return .none
  }

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
  private func scheduleDelivery() {
    if let delay {
      scheduler.schedule(
        after: scheduler.now.advanced(by: delay.interval), tolerance: delay.tolerance,
        options: options, deliver)
    } else {
      scheduler.schedule(options: options, deliver)
    }
  }

  /// Scheduled work: delivers one event, and requests the demand the downstream returned.
  private func deliver() {
    let demand = outbox.deliverOne()
    guard demand > .none else { return }
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.request(demand)
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer { status = .terminated }
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    outbox.close()
    upstream?.cancel()
  }
}
