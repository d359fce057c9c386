import CombineEx
import Synchronization

/// Counts the effects in flight started through one ``EffectMiddleware``'s `asMiddleware()`,
/// over all the stores it is installed in.
@usableFromInline
final class EffectCounter: Sendable {
  let count = Atomic<Int>(0)
}

/// Where the effects of one component of an effect middleware, in one store, send their
/// outputs. A class, made once per component: handed to each run as a reference, where a
/// closure taken from an array of generic closures would be re-wrapped (allocated) at every
/// run by the unspecialized code that passes it.
@usableFromInline
final class EffectOutput<Output>: @unchecked Sendable {
  // @unchecked Sendable: immutable; `send` dispatches to the store, which is thread-safe.
  let send: (Output) -> Void

  @usableFromInline
  init(_ send: @escaping (Output) -> Void) {
    self.send = send
  }
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
@usableFromInline
final class EffectTable: @unchecked Sendable {
  // @unchecked Sendable: `byToken`, `untokened` and every run's `isOver` are guarded by `lock`;
  // runs are cancelled outside it.

  /// One effect in flight, as the table files it (the subscriber that runs it is a
  /// ``Runner``).
  class Run: @unchecked Sendable {
    // @unchecked Sendable: `isOver` is guarded by the table's lock; the rest is immutable.
    let token: CancellationKey?
    /// The run as reported to an ``EffectTracking`` observer, if one watched it start.
    let tracked: TrackedEffect?
    /// Guarded by the table's lock.
    var isOver = false

    init(token: CancellationKey?, tracked: TrackedEffect?) {
      self.token = token
      self.tracked = tracked
    }

    /// Cancels the effect's subscription (overridden by ``Runner``).
    func cancelEffect() {}
  }

  /// The subscriber of one effect run: it requests everything, sends each output on, and tells
  /// the table when the effect finishes. One object instead of a `Sink`, its closures, its
  /// `AnyCancellable` and a separate record.
  ///
  /// ## State
  /// Under `lock`: the phase (`awaitingSubscription`, `active`, `over`), the subscription and
  /// the output. The table cancels it (``cancelEffect()``) from any thread, possibly before the
  /// subscription arrives; a subscription arriving after that, or a second one, is cancelled.
  /// Nothing is sent after the run is over, and the output and the subscription are released
  /// then.
  final class Runner<Output>: Run, Subscriber, @unchecked Sendable {
    // @unchecked Sendable: `phase`, `subscription` and `output` are guarded by `lock`; the
    // output and the subscription are called outside it.
    typealias Input = Output
    typealias Failure = Never

    private enum Phase {
      case awaitingSubscription
      case active
      case over
    }

    private let lock = Lock()
    private var phase = Phase.awaitingSubscription
    private var subscription: (any Subscription)?
    private var output: EffectOutput<Output>?
    /// Weak: the table cancels its runs when it is freed (the store is gone).
    private weak var table: EffectTable?

    init(
      token: CancellationKey?, tracked: TrackedEffect?, table: EffectTable,
      output: EffectOutput<Output>
    ) {
      self.table = table
      self.output = output
      super.init(token: token, tracked: tracked)
    }

    func receive(subscription: any Subscription) {
      let accepted = lock.withLock { () -> Bool in
        guard case .awaitingSubscription = phase else { return false }
        phase = .active
        self.subscription = subscription
        return true
      }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    func receive(_ input: Output) -> Subscribers.Demand {
      let target = lock.withLock { () -> EffectOutput<Output>? in
        guard case .active = phase else { return nil }
        return output
      }
      target?.send(input)
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
      let finished = lock.withLock { () -> Bool in
        guard case .active = phase else { return false }
        phase = .over
        subscription = nil
        output = nil
        return true
      }
      if finished, let table {
        table.finished(self)
      }
    }

    override func cancelEffect() {
      let target = lock.withLock { () -> (any Subscription)? in
        if case .over = phase { return nil }
        phase = .over
        output = nil
        defer { subscription = nil }
        return subscription
      }
      target?.cancel()
    }
  }

  /// What is left to do, outside the lock, for a run that ``end(_:)`` marked over.
  struct Ended {
    let run: Run

    /// Cancels the effect, then reports its end.
    func cancel() {
      run.cancelEffect()
      run.tracked?.end()
    }

    /// Reports the end of an effect that is over already.
    func release() {
      run.tracked?.end()
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

  /// A table for a store that is installing its middlewares on this thread (it binds its
  /// cancellation table meanwhile), or else for the process-wide cancellation table.
  @usableFromInline
  static func forInstallingStore(counter: EffectCounter) -> EffectTable {
    EffectTable(counter: counter, registry: CancellationRegistry.current ?? .shared)
  }

  deinit {
    cancelAll()
  }

  /// Runs `effect`, made by the handler written at `origin`, as ``run(_:description:output:)``
  /// does, with a description of the handler and the effect's token.
  @usableFromInline
  func run<Output>(
    _ effect: Effect<Output, Never>, origin: ActionSource, output: EffectOutput<Output>
  ) {
    // The description captures the token, not the effect: a generic capture would be boxed on
    // the heap at every run, although the description is only made for an `EffectTracking`
    // observer.
    let token = effect.token
    run(
      effect,
      description:
        "an effect of the EffectMiddleware written at \(origin.file):\(origin.line)"
        + (token.map { " (cancellation token \(readableActionDescription($0.value.base)))" }
          ?? ""),
      output: output)
  }

  /// Subscribes `effect`, with its cancellation ids in the store's table, sending its outputs
  /// to `output`. An effect with a token first cancels the effect in flight with the same token,
  /// before it starts. The run is reported to the current ``EffectTracking`` observer, if any,
  /// with `description`.
  func run<Output>(
    _ effect: Effect<Output, Never>, description: @autoclosure () -> String,
    output: EffectOutput<Output>
  ) {
    if let atOnce = effect.atOnce, effect.token == nil {
      // An effect that only cancels and finishes (`Effect.cancel(id:)`, `.none`): done here,
      // as its subscription would do it, without a subscriber, an erased publisher and a run
      // in the table. It counts as in flight, and is reported, while it runs.
      let tracked = EffectTracking.start(description())
      counter.count.add(1, ordering: .relaxed)
      atOnce.run(in: registry)
      counter.count.subtract(1, ordering: .relaxed)
      tracked?.end()
      return
    }
    let run = Runner(
      token: effect.token, tracked: EffectTracking.start(description()), table: self, output: output
    )
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
    // A run that finishes synchronously leaves the table before this returns; one cancelled
    // before its subscription arrives cancels the subscription when it does.
    effect.publisher(in: registry).receive(subscriber: run)
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
  func finished(_ run: Run) {
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

  /// Under `lock`: marks `run` over (the caller has taken it out of the table) and returns it,
  /// for the caller to cancel or report outside the lock.
  private func end(_ run: Run) -> Ended {
    run.isOver = true
    counter.count.subtract(1, ordering: .relaxed)
    return Ended(run: run)
  }
}
