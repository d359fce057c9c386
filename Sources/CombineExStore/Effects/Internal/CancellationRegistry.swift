import CombineEx

/// Something the registry can cancel: a run of a cancellable effect.
protocol RegisteredRun: AnyObject, Sendable {
  /// Stops the run's work and finishes its subscriber.
  func cancelFromRegistry()
}

/// The process-wide table of the effect runs in flight under each cancellation id
/// (``Effect/cancellable(id:cancelInFlight:)``), and of the throttling state of
/// ``Effect/throttle(id:for:scheduler:latest:)``.
///
/// Runs are removed by identity when they end, so the end of an old run never removes a newer
/// run filed under the same id. A throttling state is removed once its window has passed with
/// nothing waiting (see ``removeThrottleState(for:if:)``), so the table only holds the ids in
/// use.
package final class CancellationRegistry: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`; runs are cancelled outside
  // it.
  /// The registry every effect uses.
  package static let shared = CancellationRegistry()

  private let lock = Lock()
  private var runs: [CancellationKey: [ObjectIdentifier: any RegisteredRun]] = [:]
  private var throttles: [CancellationKey: ThrottleState] = [:]
  /// The highest generation of the throttling states removed so far. A state made again for the
  /// same id starts above it, so that a delayed value left over from the removed state can never
  /// match the new state's generation.
  private var retiredThrottleGeneration = 0

  /// Files `run` under `key`.
  func insert(_ run: any RegisteredRun, for key: CancellationKey) {
    lock.withLock { runs[key, default: [:]][ObjectIdentifier(run)] = run }
  }

  /// Removes `run` (only that run) from `key`.
  func remove(_ run: any RegisteredRun, for key: CancellationKey) {
    lock.withLock {
      runs[key]?[ObjectIdentifier(run)] = nil
      if runs[key]?.isEmpty == true { runs[key] = nil }
    }
  }

  /// Cancels every run in flight under `key`; returns when each has been told to stop.
  func cancel(_ key: CancellationKey) {
    guard let cancelled = lock.withLock({ runs.removeValue(forKey: key) }) else { return }
    for run in cancelled.values {
      run.cancelFromRegistry()
    }
  }

  /// How many runs are in flight under `key` (for tests).
  func count(for key: CancellationKey) -> Int {
    lock.withLock { runs[key]?.count ?? 0 }
  }

  /// Reads and updates the throttling state of `key` atomically (making it if there is none).
  func withThrottleState<Result>(
    for key: CancellationKey, _ body: (inout ThrottleState) -> Result
  ) -> Result {
    lock.withLock {
      body(&throttles[key, default: ThrottleState(generation: retiredThrottleGeneration + 1)])
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

/// What ``Effect/throttle(id:for:scheduler:latest:)`` remembers for one id: when it last
/// published (a scheduler time, type-erased) and the value waiting for the end of the window.
struct ThrottleState {
  var lastPublished: Any?
  var pending: Any?
  /// Counts the values that had to wait: only the newest waiting one is published at the end
  /// of the window (it carries the value chosen for the window), the others are dropped.
  var generation: Int
}
