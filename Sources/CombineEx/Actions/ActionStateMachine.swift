/// The state of an ``Action``: the gate that lets one run at a time, and the changes of
/// `isExecuting` and `isEnabled` still to be published.
///
/// A pure value type: ``ActionStorage`` runs each transition under its lock and publishes the
/// changes the transitions queue *after* unlocking, one thread at a time, in the order they
/// happened.
struct ActionStateMachine {
  /// One change to publish.
  enum Publication: Equatable {
    /// `isExecuting` changed to this value.
    case isExecuting(Bool)
    /// `isEnabled` changed to this value.
    case isEnabled(Bool)
  }

  /// Whether a run is in flight: the gate. At most one run passes it at a time.
  private(set) var isExecuting = false

  /// The latest value `enabledIf` delivered to the action (used for `isEnabled`'s changes).
  private var enabledIf: Bool

  /// The values of the last queued publications, so that only changes are queued
  /// (`isExecuting` and `isEnabled` are deduplicated).
  private var queuedIsExecuting = false
  private var queuedIsEnabled: Bool

  /// Changes not yet handed to the publishing thread: `pending[pendingHead..<pendingCount]`,
  /// oldest first. The array is a buffer that only grows: a change is written over a taken
  /// one when it can, and emptying the queue only resets the two indices (the array's
  /// `removeAll(keepingCapacity:)` and `removeFirst` were a tenth of the gate's instructions
  /// in Benchmarks' `j2`).
  private var pending: [Publication] = []
  private var pendingHead = 0
  private var pendingCount = 0

  /// Whether a thread is publishing `pending`; others only add to it.
  private var isPublishing = false

  /// The ticket of the run in flight when a latest-wins binding started it: the binding that
  /// holds it may hand the gate over to its next run (``startLatest(replacing:enabledIfNow:)``).
  /// `nil` when no run is in flight, or when the run in flight came through
  /// ``start(enabledIfNow:)`` (an `apply`), which nothing hands over. Set only while
  /// `isExecuting`.
  private var handOverTicket: ActionRunTicket?

  /// The number of the last ticket issued.
  private var ticketsIssued: UInt64 = 0

  init(enabledIf: Bool) {
    self.enabledIf = enabledIf
    queuedIsEnabled = enabledIf
  }

  /// The gate: starts a run unless one is in flight or `enabledIfNow` is `false`.
  ///
  /// - Returns: whether the run may start.
  mutating func start(enabledIfNow: Bool) -> Bool {
    guard !isExecuting, enabledIfNow else { return false }
    isExecuting = true
    queueChanges()
    return true
  }

  /// The run in flight ended (completion or cancel).
  mutating func end() {
    guard isExecuting else { return }
    isExecuting = false
    queueChanges()
  }

  /// `enabledIf` delivered a value.
  mutating func enabledIfChanged(to value: Bool) {
    enabledIf = value
    queueChanges()
  }

  // MARK: Latest-wins runs (`applyLatest(from:)`)

  /// The gate for a run of a latest-wins binding, in one transition.
  ///
  /// - If the run in flight holds `previous` (the binding's own run), the gate is *handed
  ///   over*: it stays taken, by the new run, and nothing is queued for publication, so
  ///   `isExecuting` and `isEnabled` do not flicker. The previous run's ``end(_:)`` then does
  ///   nothing.
  /// - If no run is in flight, the run starts as with ``start(enabledIfNow:)``.
  /// - If another run is in flight (an `apply`, another binding's run, or a run of this
  ///   binding that already ended and was followed by someone else's), or `enabledIfNow` is
  ///   `false`, the run is refused.
  ///
  /// - Returns: the new run's ticket, or `nil` if it was refused.
  mutating func startLatest(
    replacing previous: ActionRunTicket?, enabledIfNow: Bool
  ) -> ActionRunTicket? {
    guard enabledIfNow else { return nil }
    if isExecuting {
      guard let previous, handOverTicket == previous else { return nil }
      let ticket = issueTicket()
      handOverTicket = ticket
      return ticket
    }
    let ticket = issueTicket()
    isExecuting = true
    handOverTicket = ticket
    queueChanges()
    return ticket
  }

  /// The latest-wins run holding `ticket` ended (completion or cancel).
  ///
  /// - Returns: whether it still held the gate (and cleared it); `false` if it had been handed
  ///   over, in which case its end is not the action's business.
  mutating func end(_ ticket: ActionRunTicket) -> Bool {
    guard isExecuting, handOverTicket == ticket else { return false }
    handOverTicket = nil
    isExecuting = false
    queueChanges()
    return true
  }

  private mutating func issueTicket() -> ActionRunTicket {
    ticketsIssued += 1
    return ActionRunTicket(number: ticketsIssued)
  }

  /// Claims the right to publish if there is something to publish and nobody is publishing,
  /// and takes the first change out (in the same hold of the caller's lock).
  ///
  /// - Returns: the first change to publish, after which the caller must call
  ///   ``nextPublication()`` until it returns `nil`; `nil` if the caller has nothing to do.
  mutating func claimFirstPublication() -> Publication? {
    guard !isPublishing, let first = removeFirstPending() else { return nil }
    isPublishing = true
    return first
  }

  /// The next change for the publishing thread, or `nil` (and the claim released) when none is
  /// left.
  mutating func nextPublication() -> Publication? {
    guard let next = removeFirstPending() else {
      isPublishing = false
      return nil
    }
    return next
  }

  /// Takes the oldest pending change out, if any.
  @inline(__always)
  private mutating func removeFirstPending() -> Publication? {
    guard pendingHead < pendingCount else { return nil }
    let first = pending[pendingHead]
    pendingHead += 1
    if pendingHead == pendingCount {
      pendingHead = 0
      pendingCount = 0
    }
    return first
  }

  /// Queues `publication` after the pending ones.
  @inline(__always)
  private mutating func appendPending(_ publication: Publication) {
    if pendingCount < pending.count {
      pending[pendingCount] = publication
    } else {
      pending.append(publication)
    }
    pendingCount += 1
  }

  private mutating func queueChanges() {
    if isExecuting != queuedIsExecuting {
      queuedIsExecuting = isExecuting
      appendPending(.isExecuting(isExecuting))
    }
    let isEnabled = enabledIf && !isExecuting
    if isEnabled != queuedIsEnabled {
      queuedIsEnabled = isEnabled
      appendPending(.isEnabled(isEnabled))
    }
  }
}
