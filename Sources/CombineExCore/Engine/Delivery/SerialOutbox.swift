/// One thing for a downstream subscriber: a value or the completion.
@usableFromInline
enum OutboxEvent<Input, Failure: Error> {
  case value(Input)
  case completion(Subscribers.Completion<Failure>)
}

/// The downstream side of the operators that deliver from scheduled work (`receive(on:)`,
/// `delay`, `debounce`, `throttle`, `timeout`, `collect(.byTime)`) and of publishers fed by
/// other threads (`NotificationCenter.Publisher`).
///
/// Scheduled work may run on any thread (a concurrent queue runs several actions at once), yet
/// a subscriber must receive one call at a time, in order, and nothing after `cancel`. The
/// outbox guarantees this:
/// - Events wait in a first-in first-out queue. ``enqueue(_:)`` fixes an event's place (the
///   operator calls it when the upstream sends, so order follows the upstream), and each call
///   of ``deliverOne()`` (made by one scheduled action) delivers the oldest waiting event.
/// - One thread at a time delivers. A ``deliverOne()`` that finds another thread (or its own
///   thread, re-entrantly) delivering hands its event over and returns at once; the delivering
///   thread delivers it before it stops. So no thread ever waits, re-entrant calls do not
///   recurse, and the subscriber never sees two calls at once.
/// - ``close()`` drops the waiting events and releases the subscriber: no delivery starts once
///   it has returned (a delivery already running on another thread finishes).
/// - A completion closes the outbox after it is delivered.
/// - Started with `reportingDetach: true`, it tells the subscriber when it has forgotten it
///   after ``close()`` (`reportDetach(to:)`): at once when no delivery runs, otherwise from the
///   delivering thread once that delivery returns. A `sink` then needs no atomic bookkeeping
///   per value to release its closures on cancel.
///
/// No lock is held while calling the subscriber.
@usableFromInline
final class SerialOutbox<Downstream: Subscriber>: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`; `downstream` is only
  // called by the one thread that set `delivering`.
  // The `var`s skip the runtime's exclusivity checks (`@exclusivity(unchecked)`): the lock
  // already makes every access exclusive, and the checks cost more than the work.
  @usableFromInline
  typealias Event = OutboxEvent<Downstream.Input, Downstream.Failure>

  @usableFromInline
  let lock = Lock()
  /// The subscriber, until a completion is delivered or the outbox is closed.
  @usableFromInline
  @exclusivity(unchecked)
  var downstream: Downstream?
  /// Events waiting for delivery, oldest first. An event leaves it (and is released once
  /// delivered) as the delivering thread takes it.
  @usableFromInline
  @exclusivity(unchecked)
  var queue = ValueQueue<Event>()
  /// Deliveries asked for (one per `deliverOne`) and not yet made.
  @usableFromInline
  @exclusivity(unchecked)
  var credits = 0
  /// Whether a thread is delivering.
  @usableFromInline
  @exclusivity(unchecked)
  var delivering = false
  /// Whether the subscriber was promised a report once the outbox has forgotten it.
  @usableFromInline
  @exclusivity(unchecked)
  var reportsDetach = false
  /// The outbox was closed while a delivery ran: the delivering thread reports detach when it
  /// stops.
  @usableFromInline
  @exclusivity(unchecked)
  var detachPending = false

  @inlinable
  init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// Whether the outbox still delivers (not closed, no completion delivered).
  @inlinable
  var isOpen: Bool {
    lock.withLock { downstream != nil }
  }

  /// Hands the subscription to the subscriber. Call it once, before any event. With
  /// `reportingDetach`, the subscriber is promised a report once the outbox has forgotten it
  /// after ``close()`` (only for operators whose every delivery goes through the outbox).
  @inlinable
  func start(_ subscription: any Subscription, reportingDetach: Bool = false) {
    let downstream = lock.withLock { () -> Downstream? in
      reportsDetach = reportingDetach
      return self.downstream
    }
    guard let downstream else { return }
    if reportingDetach {
      handOver(subscription, reportingDetachTo: downstream)
    } else {
      downstream.receive(subscription: subscription)
    }
  }

  /// Puts `event` at the end of the queue without delivering it. Returns `false` (and drops
  /// the event) once the outbox is closed.
  @discardableResult
  @inlinable
  func enqueue(_ event: Event) -> Bool {
    lock.withLock {
      guard downstream != nil else { return false }
      queue.append(event)
      return true
    }
  }

  /// Drops the waiting events and puts `event` in their place (a `timeout` that fires drops
  /// the values still waiting and completes). Returns `false` once the outbox is closed.
  @discardableResult
  @inlinable
  func replaceQueued(with event: Event) -> Bool {
    lock.withLock {
      guard downstream != nil else { return false }
      queue.removeAll()
      queue.append(event)
      return true
    }
  }

  /// Delivers the oldest waiting event, on this thread, or has the thread that is delivering
  /// deliver it. Returns the demand the subscriber returned from the values this call
  /// delivered (`.none` when another thread delivers).
  @inlinable
  func deliverOne() -> Subscribers.Demand {
    var demand = Subscribers.Demand.none
    deliverOne(reportingEach: { demand += $0 })
    return demand
  }

  /// ``deliverOne()``, but hands the demand the subscriber returns from each value to
  /// `returned` as soon as that value is delivered, instead of adding it up: `receive(on:)`,
  /// `delay` and `timeout` request it from their upstream value by value, as Combine does.
  @inlinable
  func deliverOne(reportingEach returned: (Subscribers.Demand) -> Void) {
    // Starting and taking the first event share one critical section: the common case (one
    // event, no other thread) then costs two lock acquisitions, this one and the final step.
    let first = lock.withLock { () -> (Downstream, Event)? in
      guard downstream != nil else { return nil }
      credits += 1
      if delivering { return nil }
      delivering = true
      return takeNextLocked()
    }
    guard let first else { return }
    deliver(startingWith: first, reportingEach: returned)
  }

  /// The delivering thread's loop: delivers `first`, then every event credited meanwhile,
  /// handing the demand returned from each value to `returned`.
  @inlinable
  func deliver(
    startingWith first: (Downstream, Event), reportingEach returned: (Subscribers.Demand) -> Void
  ) {
    var step = first
    while true {
      Interleaving.point("outbox.deliver")  // The deliverer role, between two lock holds.
      switch step.1 {
      case .value(let value):
        returned(step.0.receive(value))
      case .completion(let completion):
        step.0.receive(completion: completion)
      }
      guard let following = takeNextAfterDelivery(to: step.0) else { return }
      step = following
    }
  }

  /// What the delivering thread does after a delivery to `downstream` returned: takes the next
  /// event, or (`nil`) ends its turn; a close that came meanwhile is reported to the subscriber
  /// here, now that the delivery returned.
  @inlinable
  func takeNextAfterDelivery(to downstream: Downstream) -> (Downstream, Event)? {
    let (following, detached) = lock.withLock { () -> ((Downstream, Event)?, Bool) in
      let following = takeNextLocked()
      guard following == nil, detachPending else { return (following, false) }
      detachPending = false
      return (nil, true)
    }
    if detached { reportDetach(to: downstream) }
    return following
  }

  /// Enqueues `event` and delivers the oldest waiting event (which is `event` when nothing
  /// else waits): what a scheduled action that runs at once (`ImmediateScheduler`) does. Hands
  /// the demand the subscriber returns from each value this call delivers to `returned`.
  @inlinable
  func send(_ event: Event, reportingEach returned: (Subscribers.Demand) -> Void) {
    let first = lock.withLock { () -> (Downstream, Event)? in
      guard let downstream else { return nil }
      if !delivering, queue.isEmpty {
        // Nothing waits and nobody delivers: `event` is next, so it skips the queue.
        delivering = true
        if case .completion = event {
          self.downstream = nil
          credits = 0
        }
        return (downstream, event)
      }
      queue.append(event)
      credits += 1
      if delivering { return nil }
      delivering = true
      return takeNextLocked()
    }
    guard let first else { return }
    deliver(startingWith: first, reportingEach: returned)
  }

  /// Drops every waiting event and releases the subscriber; nothing is delivered afterwards.
  @inlinable
  func close() {
    Interleaving.point("outbox.close")
    let released = lock.withLock { () -> (Downstream?, ValueQueue<Event>, reports: Bool) in
      defer {
        downstream = nil
        queue = ValueQueue()
        credits = 0
      }
      guard reportsDetach, downstream != nil else { return (downstream, queue, false) }
      if delivering {
        detachPending = true  // The delivering thread reports when its delivery returns.
        return (downstream, queue, false)
      }
      return (downstream, queue, true)
    }
    if released.reports, let downstream = released.0 { reportDetach(to: downstream) }
    // The subscriber and the dropped events are released here, outside the lock.
    _ = released
  }

  /// The delivering thread's next step, with the lock held: the event to deliver, or `nil`
  /// (and `delivering` cleared) when there is nothing more to do.
  @inlinable
  func takeNextLocked() -> (Downstream, Event)? {
    guard let downstream, credits > 0, let event = queue.popFirst() else {
      delivering = false
      if queue.isEmpty { credits = 0 }
      return nil
    }
    credits -= 1
    if case .completion = event {
      self.downstream = nil
      queue = ValueQueue()
      credits = 0
    }
    return (downstream, event)
  }
}
