import CombineExCore

/// The state of a ``DeferredFutureDemuxer``: one shared run per key, and the subscriptions
/// waiting for it.
///
/// A pure value type: the demuxer runs each transition under its lock and acts on what it
/// returns (starting a run, calling promises, cancelling a run) after unlocking.
///
/// Roles: a *run* is one subscription to the operation's future for a key; a *waiter* is one
/// subscription to a future returned by `build(key:)`, identified by a token. A key has at most
/// one run at a time; every waiter of the key, from the first until the run's result, shares
/// it. A run whose waiters have all cancelled is forgotten, and cancelled if it had started.
struct DemuxerStateMachine<Key: Hashable, Output, Failure: Error> {
  typealias Promise = Future<Output, Failure>.Promise

  /// One shared run.
  struct Run {
    let id: Int
    let key: Key
    /// The promises of the waiting subscriptions, by token.
    var waiters: [Int: Promise] = [:]
    /// The run's subscription to the operation's future, once started.
    var subscription: AnyCancellable?
  }

  /// The run of each key that has one.
  private var runs: [Key: Run] = [:]
  /// The key of each run that is still wanted, by run id.
  private var keysByRun: [Int: Key] = [:]
  /// The run each waiter waits for, by token.
  private var runsByWaiter: [Int: Int] = [:]
  private var nextID = 0

  /// A subscription to `build(key)` arrived with `promise`.
  ///
  /// - Returns: the waiter's token, and the id of a run to start if the key had none.
  mutating func join(_ key: Key, promise: @escaping Promise) -> (token: Int, runToStart: Int?) {
    let token = makeID()
    var runToStart: Int?
    if runs[key] == nil {
      let id = makeID()
      runs[key] = Run(id: id, key: key)
      keysByRun[id] = key
      runToStart = id
    }
    runs[key]?.waiters[token] = promise
    runsByWaiter[token] = runs[key]?.id
    return (token, runToStart)
  }

  /// The key of run `id`, if the run is still wanted (it may have been given up before it
  /// started).
  func key(ofRun id: Int) -> Key? {
    keysByRun[id]
  }

  /// Run `id` subscribed to the operation's future.
  ///
  /// - Returns: the subscription back if the run is no longer wanted (its result came already,
  ///   or every waiter left): the caller cancels (or just drops) it, after unlocking.
  mutating func started(_ id: Int, subscription: AnyCancellable) -> AnyCancellable? {
    guard let key = keysByRun[id] else { return subscription }
    runs[key]?.subscription = subscription
    return nil
  }

  /// Run `id` produced its result.
  ///
  /// - Returns: the promises to call with it, and the run's subscription to release, both
  ///   after unlocking. The key is free for a new run.
  mutating func finished(_ id: Int) -> (promises: [Promise], subscription: AnyCancellable?) {
    guard let key = keysByRun.removeValue(forKey: id), let run = runs.removeValue(forKey: key)
    else { return ([], nil) }
    for token in run.waiters.keys { runsByWaiter[token] = nil }
    return (Array(run.waiters.values), run.subscription)
  }

  /// Waiter `token` cancelled.
  ///
  /// - Returns: `true` and the run's subscription (`nil` if it had not started) if that was the
  ///   run's last waiter: the run is forgotten, and the caller cancels it after unlocking.
  mutating func left(_ token: Int) -> (abandoned: Bool, subscription: AnyCancellable?) {
    guard let id = runsByWaiter.removeValue(forKey: token), let key = keysByRun[id] else {
      return (false, nil)
    }
    runs[key]?.waiters[token] = nil
    guard runs[key]?.waiters.isEmpty == true else { return (false, nil) }
    keysByRun[id] = nil
    return (true, runs.removeValue(forKey: key)?.subscription)
  }

  private mutating func makeID() -> Int {
    nextID += 1
    return nextID
  }
}
