import CombineExCore

/// The lock owner of an ``Action``'s state: it runs ``ActionStateMachine``'s transitions under
/// its lock and publishes `isExecuting` and `isEnabled` after unlocking.
///
/// It is separate from the action so that the action's `isExecuting` and `isEnabled` properties
/// can outlive the action without keeping it alive.
final class ActionStorage: @unchecked Sendable {
  // @unchecked Sendable: `machine` is guarded by `lock`; the properties are thread-safe and
  // `enabledIfSubscription` is written once, in `init`.

  private let lock = Lock()
  /// Guarded by `lock`. (Unchecked exclusivity: the lock serializes every access, and the
  /// runtime's access checks were a fifth of the gate's instructions in Benchmarks' j2.)
  @exclusivity(unchecked)
  private var machine: ActionStateMachine

  /// The condition the action was created with.
  let enabledIf: Property<Bool>

  /// What `isExecuting` and `isEnabled` subscribers receive.
  let publishedIsExecuting = MutableProperty(false)
  let publishedIsEnabled: MutableProperty<Bool>

  /// Follows `enabledIf` for `isEnabled`; cancelled when the storage is freed.
  @exclusivity(unchecked)
  private var enabledIfSubscription: AnyCancellable?

  init(enabledIf: Property<Bool>) {
    let initial = enabledIf.value
    self.enabledIf = enabledIf
    machine = ActionStateMachine(enabledIf: initial)
    publishedIsEnabled = MutableProperty(initial)
    enabledIfSubscription = enabledIf.sink { [weak self] value in
      self?.enabledIfChanged(to: value)
    }
  }

  /// Whether a run is in flight, as of now.
  var isExecuting: Bool { lock.withLock { machine.isExecuting } }

  /// Whether a run would start now.
  var isEnabled: Bool {
    let enabledIf = enabledIf.value
    return enabledIf && !isExecuting
  }

  /// The gate: starts a run unless one is in flight or `enabledIf` is `false`, and publishes
  /// `isExecuting = true` before returning.
  func start() -> Bool {
    // Read outside the lock: reading a property is a call to another object.
    let enabledIfNow = enabledIf.value
    Interleaving.point("action.gate.enabledIfRead")
    // The transition, the claim to publish its changes and the first of them under one
    // acquisition of the lock.
    let (started, first) = lock.withLock { () -> (Bool, ActionStateMachine.Publication?) in
      let started = machine.start(enabledIfNow: enabledIfNow)
      return (started, started ? machine.claimFirstPublication() : nil)
    }
    if let first { publishClaimedChanges(startingWith: first) }
    return started
  }

  /// Ends the run in flight and publishes `isExecuting = false` before returning (unless
  /// another thread, or an outer call on this one, is publishing: then that one delivers it
  /// right after its current delivery).
  func end() {
    let first = lock.withLock { () -> ActionStateMachine.Publication? in
      machine.end()
      return machine.claimFirstPublication()
    }
    if let first { publishClaimedChanges(startingWith: first) }
  }

  /// The gate for a run of a latest-wins binding (`applyLatest(from:)`): hands the gate over
  /// from the binding's run `previous` if it still holds it (publishing nothing), or starts the
  /// run as ``start()`` does, or refuses it (see ``ActionStateMachine``'s
  /// `startLatest(replacing:enabledIfNow:)`).
  ///
  /// - Parameters:
  ///   - previous: The ticket of the binding's last run, if it has one.
  ///   - register: Called with the new run's ticket before its changes are published (a
  ///     subscriber of `isExecuting` may send the binding its next input), outside the lock.
  /// - Returns: the new run's ticket, or `nil` if the run was refused.
  func startLatest(
    replacing previous: ActionRunTicket?, register: (ActionRunTicket) -> Void
  ) -> ActionRunTicket? {
    // Read outside the lock, as in `start()`.
    let enabledIfNow = enabledIf.value
    let (ticket, first) = lock.withLock {
      () -> (ActionRunTicket?, ActionStateMachine.Publication?) in
      let ticket = machine.startLatest(replacing: previous, enabledIfNow: enabledIfNow)
      return (ticket, ticket != nil ? machine.claimFirstPublication() : nil)
    }
    guard let ticket else { return nil }
    register(ticket)
    if let first { publishClaimedChanges(startingWith: first) }
    return ticket
  }

  /// Ends the latest-wins run holding `ticket`, and publishes `isExecuting = false` before
  /// returning (as ``end()`` does) if it still held the gate.
  ///
  /// - Returns: whether it still held the gate; `false` if it had been handed over.
  func end(_ ticket: ActionRunTicket) -> Bool {
    let (ended, first) = lock.withLock { () -> (Bool, ActionStateMachine.Publication?) in
      let ended = machine.end(ticket)
      return (ended, ended ? machine.claimFirstPublication() : nil)
    }
    if let first { publishClaimedChanges(startingWith: first) }
    return ended
  }

  private func enabledIfChanged(to value: Bool) {
    lock.withLock { machine.enabledIfChanged(to: value) }
    publishChanges()
  }

  /// Publishes the queued changes in order, unless someone else is already doing it.
  private func publishChanges() {
    guard let first = lock.withLock({ machine.claimFirstPublication() }) else { return }
    publishClaimedChanges(startingWith: first)
  }

  /// Publishes `first`, then the other queued changes in order; the caller has claimed the
  /// right to publish (and taken `first` out with the claim).
  private func publishClaimedChanges(startingWith first: ActionStateMachine.Publication) {
    var next: ActionStateMachine.Publication? = first
    while let publication = next {
      Interleaving.point("action.publish")  // The publisher role, between two lock holds.
      switch publication {
      case .isExecuting(let value): publishedIsExecuting.value = value
      case .isEnabled(let value): publishedIsEnabled.value = value
      }
      next = lock.withLock { machine.nextPublication() }
    }
  }
}
