import CombineExCore

/// The runs of one latest-wins binding (`applyLatest(from:)`): which one is the latest, the
/// hand-over of the action's gate from each to the next, and the delivery of their events to
/// the action.
///
/// ## Delivery
/// Runs may deliver on several threads at once: the run being replaced on its own thread, the
/// new one on the thread of the input that started it. Their events reach the action through
/// one ``DeliveryQueue`` (one deliverer at a time, the others queue and return), so they are
/// published one at a time and in the order they came. A value is published only if its run
/// is still the latest when its turn comes; a value already being published when a new input
/// arrives finishes first, and the new run's values queue behind it, so the last values the
/// action publishes are always the latest run's.
///
/// Weak to the action (neither the binding nor its runs keep it alive); strong to its
/// ``ActionStorage``, whose gate a run may have to clear after the action is gone.
final class ActionLatestRuns<Input, Output, RunFailure: Error>: @unchecked Sendable {
  // @unchecked Sendable: the `var`s are guarded by `lock`; the `let`s are immutable
  // references to thread-safe objects.

  typealias Run = ActionLatestRun<Input, Output, RunFailure>

  /// An event of a run, on its way to the action.
  enum Event {
    /// A value of the run holding the ticket.
    case value(Output, ActionRunTicket)
    /// A run finished (it still held the gate).
    case finished
    /// A run failed (it still held the gate).
    case failed(RunFailure)
  }

  /// Where the binding is in its life.
  private enum Phase {
    /// The source may send more values.
    case active
    /// The source completed: the binding ends with its last run.
    case sourceEnded
    /// The action was freed: nothing more starts or is published.
    case ended
  }

  private weak let action: Action<Input, Output, RunFailure>?
  private let storage: ActionStorage
  private weak let bindings: ActionBindings?
  private let bindingID: CombineIdentifier

  private let lock = Lock()
  private var phase = Phase.active
  /// The latest run, while it is in flight.
  private var current: Run?
  /// The latest run's ticket, kept after it ended: its queued values are still published.
  private var latest: ActionRunTicket?
  private var deliveries = DeliveryQueue<Event, Never>()

  init(action: Action<Input, Output, RunFailure>, bindingID: CombineIdentifier) {
    self.action = action
    storage = action.storage
    bindings = action.bindings
    self.bindingID = bindingID
  }

  // MARK: The binding's events

  /// Starts a run for `input`, handing the gate over from the previous run if it is still in
  /// flight; refuses it (`disabledErrors`) if the gate says no.
  func apply(_ input: Input) {
    guard let action else { return }
    let (isEnded, previous) = lock.withLock { (phase == .ended, current) }
    guard !isEnded else { return }
    var started: Run?
    let ticket = storage.startLatest(replacing: previous?.ticket) { ticket in
      let run = Run(ticket: ticket, runs: self)
      started = run
      lock.withLock {
        guard phase != .ended else { return }
        current = run
        latest = ticket
      }
    }
    guard let ticket, let run = started else {
      action.disabledErrorsSubject.send(())
      return
    }
    // The gate is the new run's now (or the previous run had ended already): the previous run
    // is cancelled without a word.
    previous?.cancel()
    // A subscriber of `isExecuting` may have sent a newer input while the start was published,
    // or freed the action: then this run never starts (and gives the gate back if it has it).
    guard lock.withLock({ current === run }) else {
      _ = storage.end(ticket)
      return
    }
    action.execute(input).subscribe(run)
  }

  /// The source completed: the binding ends now, or with its last run.
  func sourceEnded() {
    let done = lock.withLock { () -> Bool in
      guard phase == .active else { return false }
      phase = .sourceEnded
      return current == nil
    }
    if done { bindings?.forget(bindingID) }
  }

  /// The action is being freed: cancels the run in flight (which publishes nothing more) and
  /// clears the gate.
  func end() {
    let run = lock.withLock { () -> Run? in
      phase = .ended
      deliveries.close()
      defer { current = nil }
      return current
    }
    guard let run else { return }
    run.cancel()
    _ = storage.end(run.ticket)
  }

  // MARK: The runs' events

  /// A value of `run` (published only if `run` is still the latest when its turn comes).
  func receive(_ value: Output, from run: Run) {
    deliver(.value(value, run.ticket))
  }

  /// `run` completed: if it still held the gate, the gate is cleared and the completion
  /// published; if it had been handed over, nothing happens.
  func receive(completion: Subscribers.Completion<RunFailure>, from run: Run) {
    let heldTheGate = storage.end(run.ticket)
    let bindingDone = lock.withLock { () -> Bool in
      guard current === run else { return false }
      current = nil
      return phase == .sourceEnded
    }
    if heldTheGate {
      switch completion {
      case .finished: deliver(.finished)
      case .failure(let failure): deliver(.failed(failure))
      }
    }
    if bindingDone { bindings?.forget(bindingID) }
  }

  // MARK: Delivery

  /// Publishes `event`, and whatever other threads queue meanwhile, unless another thread is
  /// publishing: then it queues it and returns.
  private func deliver(_ event: Event) {
    var next = lock.withLock { deliveries.offer(event) }
    while let event = next {
      publish(event)
      next = lock.withLock { () -> Event? in
        guard case .value(let event) = deliveries.next() else { return nil }
        return event
      }
    }
  }

  private func publish(_ event: Event) {
    guard let action else { return }
    switch event {
    case .value(let value, let ticket):
      guard lock.withLock({ latest == ticket }) else { return }
      action.sendValue(value)
    case .finished:
      action.completedSubject.send(())
    case .failed(let failure):
      action.errorsSubject.send(failure)
    }
  }
}
