import CombineEx
import Synchronization

/// Counts the effects in flight started through one ``EffectMiddleware``'s `asMiddleware()`,
/// over all the stores it is installed in.
final class EffectCounter: Sendable {
  let count = Atomic<Int>(0)
}

/// The effects one component of an effect middleware has in flight for one store: those filed
/// under a cancellation token, and the others.
///
/// ## Invariant
/// A run is in the table exactly while it is not over (`isOver == false`). Every way out marks
/// it over, under `lock`, exactly once: its completion, its replacement by a new effect with
/// the same token, `toCancel`, or the table's end (the store is gone). The completion only
/// removes the run it belongs to (compared by identity), so a late completion of a replaced
/// run can never remove its successor; and the counter moves once in, once out. The end of a
/// run that an ``EffectTracking`` observer saw start is reported once, outside the lock.
final class EffectTable: @unchecked Sendable {
  // @unchecked Sendable: `byToken`, `untokened` and every run's `isOver` and `cancellable` are
  // guarded by `lock`; cancellables are cancelled outside it.

  /// One effect in flight.
  final class Run {
    let token: CancellationKey?
    /// The run as reported to an ``EffectTracking`` observer, if one watched it start.
    let tracked: TrackedEffect?
    /// What cancels the effect, once its subscription has returned. Guarded by the table's lock.
    var cancellable: AnyCancellable?
    /// Guarded by the table's lock.
    var isOver = false

    init(token: CancellationKey?, tracked: TrackedEffect?) {
      self.token = token
      self.tracked = tracked
    }
  }

  /// What is left to do, outside the lock, for a run that ``end(_:)`` marked over.
  struct Ended {
    let cancellable: AnyCancellable?
    let tracked: TrackedEffect?

    /// Cancels the effect, then reports its end.
    func cancel() {
      cancellable?.cancel()
      tracked?.end()
    }

    /// Releases the effect's cancellable (the effect is over already), then reports its end.
    func release() {
      withExtendedLifetime(cancellable) {}
      tracked?.end()
    }
  }

  private let lock = Lock()
  private var byToken: [CancellationKey: Run] = [:]
  private var untokened: [ObjectIdentifier: Run] = [:]
  private let counter: EffectCounter
  /// The cancellation table of the store the middleware is installed in.
  private let registry: CancellationRegistry

  init(counter: EffectCounter, registry: CancellationRegistry) {
    self.counter = counter
    self.registry = registry
  }

  deinit {
    cancelAll()
  }

  /// Subscribes `effect`, with its cancellation ids in the store's table, sending its outputs
  /// with `send`. An effect with a token first cancels the effect in flight with the same token,
  /// before it starts. The run is reported to the current ``EffectTracking`` observer, if any,
  /// with `description`.
  func run<Output>(
    _ effect: Effect<Output, Never>, description: @autoclosure () -> String,
    send: @escaping (Output) -> Void
  ) {
    let run = Run(token: effect.token, tracked: EffectTracking.start(description()))
    let replaced = lock.withLock { () -> Ended? in
      var replaced: Ended?
      if let token = run.token {
        if let old = byToken[token] {
          replaced = end(old)
        }
        byToken[token] = run
      } else {
        untokened[ObjectIdentifier(run)] = run
      }
      counter.count.add(1, ordering: .relaxed)
      return replaced
    }
    replaced?.cancel()
    let cancellable = effect.publisher(in: registry).sink(
      receiveCompletion: { [weak self, weak run] _ in
        if let self, let run { finished(run) }
      },
      receiveValue: send)
    let isOver = lock.withLock { () -> Bool in
      if run.isOver { return true }
      run.cancellable = cancellable
      return false
    }
    if isOver { cancellable.cancel() }  // finished synchronously, or cancelled meanwhile
  }

  /// Cancels the effect in flight under `token`, if any.
  func cancel(_ token: CancellationKey) {
    let ended = lock.withLock { () -> Ended? in
      guard let run = byToken.removeValue(forKey: token) else { return nil }
      return end(run)
    }
    ended?.cancel()
  }

  /// Cancels every effect in flight.
  func cancelAll() {
    let ended = lock.withLock { () -> [Ended] in
      let runs = Array(byToken.values) + Array(untokened.values)
      byToken = [:]
      untokened = [:]
      return runs.map { end($0) }
    }
    for run in ended {
      run.cancel()
    }
  }

  /// How many effects are in flight.
  var count: Int {
    lock.withLock { byToken.count + untokened.count }
  }

  /// Removes `run` after its completion, if it is still in the table.
  private func finished(_ run: Run) {
    let ended = lock.withLock { () -> Ended? in
      guard !run.isOver else { return nil }
      if let token = run.token {
        if byToken[token] === run { byToken[token] = nil }
      } else {
        untokened[ObjectIdentifier(run)] = nil
      }
      return end(run)
    }
    ended?.release()  // outside the lock
  }

  /// Under `lock`: marks `run` over (the caller has taken it out of the table) and returns its
  /// cancellable and tracking handle, for the caller to cancel or release outside the lock.
  private func end(_ run: Run) -> Ended {
    run.isOver = true
    counter.count.subtract(1, ordering: .relaxed)
    defer { run.cancellable = nil }
    return Ended(cancellable: run.cancellable, tracked: run.tracked)
  }
}
