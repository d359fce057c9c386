import CombineEx

/// Something the registry can cancel: a run of a cancellable effect.
protocol RegisteredRun: AnyObject, Sendable {
  /// Stops the run's work and finishes its subscriber.
  func cancelFromRegistry()
}

/// A table of the effect runs in flight under each cancellation id
/// (``Effect/cancellable(id:cancelInFlight:)``), and of the throttling state of
/// ``Effect/throttle(id:for:scheduler:latest:)``.
///
/// Each ``Store`` has one (``Store/cancellationRegistry``), so stores never cancel each other's
/// effects; ``shared`` serves the effects run outside any store. An effect learns its table once,
/// when it is subscribed, and hands it explicitly to the effects it is made of (see ``Effect``).
///
/// Runs are removed by identity when they end, so the end of an old run never removes a newer
/// run filed under the same id. A throttling state is removed once its window has passed with
/// no run waiting to publish (see ``removeThrottleState(for:if:)``), so the table only holds the
/// ids in use.
@usableFromInline
package final class CancellationRegistry: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`; runs are cancelled outside
  // it.
  /// The process-wide table, for the effects run outside any store.
  package static let shared = CancellationRegistry()

  /// The table of the store running code for itself on this thread (creating its middlewares,
  /// or processing an action), if any.
  @usableFromInline
  static var current: CancellationRegistry? {
    ProcessingContext.current?.registry
  }

  /// Creates an empty table.
  package init() {}

  private let lock = Lock()
  private var runs: [CancellationKey: FiledRuns] = [:]
  private var throttles: [CancellationKey: ThrottleState] = [:]
  /// The highest generation of the throttling states removed so far. A state made again for the
  /// same id starts above it, so that a delayed value left over from the removed state can never
  /// match the new state's generation.
  private var retiredThrottleGeneration = 0

  /// Files `run` under `key`.
  func insert(_ run: any RegisteredRun, for key: CancellationKey) {
    // Taken out and put back rather than changed in place (`runs[key]?.insert(run)`): the
    // dictionary's in-place accessor allocates its coroutine frame on the heap here.
    lock.withLock {
      if var filed = runs.removeValue(forKey: key) {
        filed.insert(run)
        runs[key] = filed
      } else {
        runs[key] = .one(run)
      }
    }
  }

  /// Removes `run` (only that run) from `key`.
  func remove(_ run: any RegisteredRun, for key: CancellationKey) {
    lock.withLock {
      guard var filed = runs.removeValue(forKey: key) else { return }
      if !filed.remove(run) { runs[key] = filed }
    }
  }

  /// What ``Effect/cancel(id:)`` does: cancels every run in flight under `key`, and drops the
  /// throttled value waiting under `key`, if any, so that no later run publishes it. Returns
  /// when each run has been told to stop.
  func cancel(_ key: CancellationKey) {
    let cancelled = lock.withLock { () -> FiledRuns? in
      // Dropped in the same critical section as the runs are taken: a value that starts to wait
      // after this cancel belongs to a run that this cancel does not stop.
      // Only read and written back when there is a state (no in-place access, whose coroutine
      // frame is allocated on the heap).
      if !throttles.isEmpty, var state = throttles[key] {
        state.dropPending()
        throttles[key] = state
      }
      return runs.removeValue(forKey: key)
    }
    stop(cancelled)
  }

  /// What `cancelInFlight` does before a new run starts: cancels every run in flight under
  /// `key`, but keeps a throttled value waiting under `key`, which the new run may carry over
  /// (`latest: false`). Returns when each run has been told to stop.
  func cancelRuns(_ key: CancellationKey) {
    stop(lock.withLock { runs.removeValue(forKey: key) })
  }

  /// Tells each of `runs` to stop; called outside the lock, since a run finishes its subscriber.
  private func stop(_ runs: FiledRuns?) {
    switch runs {
    case nil:
      break
    case .one(let run):
      run.cancelFromRegistry()
    case .several(let all):
      for run in all.values {
        run.cancelFromRegistry()
      }
    }
  }

  /// How many runs are in flight under `key` (for tests).
  func count(for key: CancellationKey) -> Int {
    lock.withLock {
      switch runs[key] {
      case nil: 0
      case .one: 1
      case .several(let all): all.count
      }
    }
  }

  /// Reads and updates the throttling state of `key` atomically (making it if there is none).
  func withThrottleState<Result>(
    for key: CancellationKey, _ body: (inout ThrottleState) -> Result
  ) -> Result {
    lock.withLock {
      body(&throttles[key, default: ThrottleState(generation: retiredThrottleGeneration + 1)])
    }
  }

  /// Reads and updates the throttling state of `key` atomically if it has one; returns `nil`
  /// (and makes none) otherwise.
  func withExistingThrottleState<Result>(
    for key: CancellationKey, _ body: (inout ThrottleState) -> Result
  ) -> Result? {
    lock.withLock {
      guard throttles[key] != nil else { return nil }
      return body(&throttles[key]!)
    }
  }

  /// Removes the throttling state of `key` if `isExpired` says that it is no longer needed.
  func removeThrottleState(for key: CancellationKey, if isExpired: (ThrottleState) -> Bool) {
    lock.withLock {
      guard let state = throttles[key], isExpired(state) else { return }
      throttles[key] = nil
      retiredThrottleGeneration = max(retiredThrottleGeneration, state.generation)
    }
  }

  /// How many of `ids` have a throttling state (for tests: each should be removed once its
  /// window has passed with nothing waiting).
  package func throttleStateCount<ID: Hashable>(for ids: [ID]) -> Int {
    lock.withLock { ids.count(where: { throttles[CancellationKey($0)] != nil }) }
  }
}

/// The runs in flight under one id: almost always one, which is kept without a dictionary of
/// its own (a dictionary per id would be made and freed at every run).
enum FiledRuns {
  /// One run.
  case one(any RegisteredRun)
  /// Two runs or more, by identity.
  case several([ObjectIdentifier: any RegisteredRun])

  /// Adds `run`.
  mutating func insert(_ run: any RegisteredRun) {
    switch self {
    case .one(let other):
      self = .several([ObjectIdentifier(other): other, ObjectIdentifier(run): run])
    case .several(var all):
      self = .one(run)  // drops this enum's reference to `all`, so that it is changed in place
      all[ObjectIdentifier(run)] = run
      self = .several(all)
    }
  }

  /// Removes `run` (compared by identity) if it is here; returns whether none is left.
  mutating func remove(_ run: any RegisteredRun) -> Bool {
    switch self {
    case .one(let other):
      return other === run
    case .several(var all):
      self = .one(run)  // drops this enum's reference to `all`, so that it is changed in place
      all[ObjectIdentifier(run)] = nil
      if all.count == 1, let last = all.values.first {
        self = .one(last)
      } else {
        self = .several(all)
      }
      return all.isEmpty
    }
  }
}

/// What ``Effect/throttle(id:for:scheduler:latest:)`` remembers for one id: when it last
/// published (a scheduler time, type-erased) and the value chosen for the end of the window.
struct ThrottleState {
  /// The value chosen for the end of the current window, if any.
  enum Pending {
    /// No value is waiting.
    case none
    /// A run waits on the scheduler to publish this value at the end of the window (the run
    /// whose waiting value made `generation`).
    case waiting(Any)
    /// The run that waited to publish this value was cancelled, but not by
    /// ``Effect/cancel(id:)`` (which drops the value): its subscriber cancelled, or a new run
    /// with the same id replaced it (`cancelInFlight`). Nothing publishes it at the end of the
    /// window; a value arriving later in the same window may still carry it over
    /// (`latest: false`), as the new run of a replacement does. Once the window has passed, it
    /// is ignored, and the state can be removed.
    case orphaned(Any)
  }

  var lastPublished: Any?
  var pending = Pending.none
  /// Counts the values that had to wait: only the newest waiting one is published at the end
  /// of the window (it carries the value chosen for the window), the others are dropped.
  var generation: Int

  /// Whether a run waits to publish a value at the end of the window.
  var isWaiting: Bool {
    if case .waiting = pending { return true }
    return false
  }

  /// The value chosen for the window so far, waiting or orphaned (only meaningful while the
  /// window lasts).
  var pendingValue: Any? {
    switch pending {
    case .none: nil
    case .waiting(let value), .orphaned(let value): value
    }
  }

  /// The run that waits with the value of `generation` was cancelled: if its value is still the
  /// one waiting, nothing will publish it any more.
  mutating func runCancelled(generation: Int) {
    guard self.generation == generation, case .waiting(let value) = pending else { return }
    pending = .orphaned(value)
  }

  /// ``Effect/cancel(id:)``: the value waiting, if any, is never to be published. The window
  /// opened by the last value published stands (as in TCA, whose cancel leaves the throttle
  /// times alone), so the id still publishes at most one value per interval.
  mutating func dropPending() {
    pending = .none
  }
}
