import Synchronization

/// The machinery shared by ``PassthroughSubject``, ``CurrentValueSubject`` and CombineEx's
/// subject-like types (`MutableProperty`, `ReplaySubject`): one implementation of Combine's
/// threading contract for subjects (ARCHITECTURE.md rules 5 and 6), for every ``SubjectKind``.
///
/// Its jobs, each in a file of its own:
/// - the delivery token, which says which thread may deliver, and the events other threads
///   wait for or hand over (`SubjectCore+DeliveryToken.swift`, with the rules);
/// - handling an event: delivering a value or the completion (this file);
/// - the subscriber list: attaching, removing and sweeping out subscribers, and keeping the
///   subject alive while they are attached (``SubjectSubscriberList``,
///   `SubjectSubscriberList.swift`);
/// - replay: the current value, or the latest values (``SubjectReplayBuffer``), for subscribers
///   that are behind (`SubjectCore+Replay.swift`);
/// - upstream subscriptions, those sent to the subject (`SubjectCore+Upstream.swift`).
///
/// Each stored property below is grouped under the job that owns it.
@usableFromInline
package final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: `token` and `upstreamDemanded` are atomic; `queue` and
  // `upstreamSubscriptions` are guarded by `lock`; every other stored property is immutable or
  // touched only by the token holder.

  // MARK: The delivery token (SubjectCore+DeliveryToken.swift)

  /// The delivery token: the identity of the thread that holds it (zero when free) and two
  /// flags (``queuedFlag``, ``waitingFlag``).
  @usableFromInline
  let token = Atomic<UInt>(0)

  /// Guards `queue` and the upstream subscriptions, and the values that replaying subjects
  /// commit atomically with taking the token (``perform(_:committing:)``).
  @usableFromInline
  package let lock = Lock()

  /// Events waiting for the token holder, as closures that handle them. Guarded by `lock`.
  /// (Closures rather than ``SubjectEvent`` values keep the stored types non-generic, which
  /// makes creating and destroying a subject cheaper; they are only allocated under
  /// contention.)
  @usableFromInline
  var queue: [() -> Void] = []

  // MARK: Upstream subscriptions (SubjectCore+Upstream.swift)

  /// Subscriptions received through `send(subscription:)` that have not ended. Guarded by
  /// `lock`.
  @usableFromInline
  var upstreamSubscriptions: [any Subscription] = []

  /// Whether the subject has requested unlimited values from its upstream subscriptions: a
  /// ``PassthroughSubject`` does it once, when the first downstream demand arrives (until then a
  /// value sent by an upstream would be lost); replaying subjects at once. Set once, never
  /// cleared; changed under `lock`.
  @usableFromInline
  let upstreamDemanded: Atomic<Bool>

  // MARK: The subscriber list (SubjectSubscriberList.swift)

  /// The attached subscribers. Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var subscribers = SubjectSubscriberList()

  /// How many events the token holder is handling, nested. While it is above zero, the
  /// subscriber list is only appended to (``sweep()`` runs when it is back at zero). Token
  /// holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var depth = 0

  /// Whether `subscribers` holds terminated subscribers to sweep out. Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var needsSweep = false

  /// The object that this core's subscriptions keep alive: the subject that owns the core
  /// (for `@Published`, the property's storage). Unretained: the owner sets it in its
  /// initializer and outlives it, since it holds the core. `nil` for a core no object keeps
  /// alive through its subscriptions (`MutableProperty`'s: its subscriptions keep the core
  /// only, as in the original CombineEx).
  @usableFromInline
  package unowned(unsafe) var owner: AnyObject?

  /// `owner`, retained while subscribers are attached: from the first attach until the last
  /// one is removed or swept out (after its cancel, or after the completion). So a subject
  /// referenced only by its subscribers stays alive, and is released when they end, as in
  /// Combine, whose subject and subscriptions form the same cycle: no subscription stores
  /// anything more for it. Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var keptOwner: AnyObject?

  // MARK: Handling events (this file)

  /// The completion, once it has been handled. Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var completion: Subscribers.Completion<Failure>?

  // MARK: Replay (SubjectCore+Replay.swift)

  /// The value as of the events handled so far (``SubjectKind/replaysCurrentValue``). Token
  /// holder only. (`package`: a property's cell that stores values without delivering them
  /// while nobody observes it sets it when the first subscriber attaches.)
  @usableFromInline
  @exclusivity(unchecked)
  package var replayValue: Output?

  /// Which subject this core runs: what it replays, whether re-entrant sends nest, what its
  /// subscriptions call themselves.
  @usableFromInline
  let kind: SubjectKind

  /// The latest values, for a subject that replays several (``SubjectKind/replay``); `nil` for
  /// the other kinds. Token holder only.
  @usableFromInline
  package let replayBuffer: SubjectReplayBuffer<Output>?

  // MARK: Entry points for the conduits

  /// Entry points for calls that arrive through `any Subscription` (a subscriber's `cancel` and
  /// `request`), where the subject's types are not known. They are created in `init`, which
  /// is compiled where the subject is created, so they jump into specialized code instead of
  /// running the generic code that the existential call reaches.
  @usableFromInline
  let performDetach: (SubjectCore<Output, Failure>, SubjectConduit<Output, Failure>) -> Void

  @usableFromInline
  let performDemand: (SubjectCore<Output, Failure>, SubjectConduit<Output, Failure>) -> Void

  // MARK: Creating

  /// A core for a subject that replays nothing (``SubjectKind/passthrough``,
  /// ``SubjectKind/observableObjectPublisher``).
  @inlinable
  package init(_ kind: SubjectKind) {
    assert(!kind.replays, "SubjectCore(\(kind)) needs what it replays")
    self.kind = kind
    replayValue = nil
    replayBuffer = nil
    upstreamDemanded = Atomic(false)
    performDetach = { $0.perform(.detach($1)) }
    performDemand = { $0.perform(.demand($1)) }
  }

  /// A core for a subject that replays its current value (``SubjectKind/currentValue``,
  /// ``SubjectKind/published``, ``SubjectKind/property``). Like Combine's
  /// `CurrentValueSubject`, it requests from its upstreams at once.
  @inlinable
  package init(_ kind: SubjectKind, currentValue: Output) {
    assert(kind.replaysCurrentValue, "SubjectCore(\(kind)) replays no current value")
    self.kind = kind
    replayValue = currentValue
    replayBuffer = nil
    upstreamDemanded = Atomic(true)
    performDetach = { $0.perform(.detach($1)) }
    performDemand = { $0.perform(.demand($1)) }
  }

  /// A core that replays the `bufferSize` latest values (``SubjectKind/replay``, CombineEx's
  /// `ReplaySubject`). Like a `CurrentValueSubject`, it requests from its upstreams at once.
  @inlinable
  package init(replayingLatest bufferSize: Int) {
    kind = .replay
    replayValue = nil
    replayBuffer = SubjectReplayBuffer(capacity: bufferSize)
    upstreamDemanded = Atomic(true)
    performDetach = { $0.perform(.detach($1)) }
    performDemand = { $0.perform(.demand($1)) }
  }

  deinit {
    for entry in subscribers.entries { entry?.release() }
  }

  // MARK: Handling events (token holder only)

  @inlinable
  func handle(_ event: SubjectEvent<Output, Failure>) {
    depth += 1
    switch event {
    case .value(let value):
      handleValue(value)
    case .completion(let completion):
      handleCompletion(completion)
    case .attach(let conduit, let start):
      handleAttach(conduit, start: start)
    case .detach(let conduit):
      if depth == 1 {
        // Outside any delivery: remove this subscriber alone, with `depth` back at zero
        // (releasing it may run deinitializers that call back into the subject).
        depth = 0
        remove(conduit)
        if needsSweep { sweep() }
        return
      }
      needsSweep = true
    case .demand(let conduit):
      handleDemand(conduit)
    }
    depth -= 1
    if depth == 0, needsSweep { sweep() }
  }

  /// The conduit of an entry of `subscribers`, borrowed from the list's retain.
  @inlinable
  func withConduit<Result>(
    _ entry: Unmanaged<AnyObject>, _ body: (SubjectConduit<Output, Failure>) -> Result
  ) -> Result {
    entry._withUnsafeGuaranteedRef { object in
      // Only conduits of this subject are stored in the list.
      body(unsafeDowncast(object, to: SubjectConduit<Output, Failure>.self))
    }
  }

  @inlinable
  func handleValue(_ value: Output) {
    guard completion == nil else { return }
    if kind.replaysCurrentValue { replayValue = value }
    // Subscribers attached by a re-entrant call are appended past `count`, so they do not
    // receive the value being sent (as in Combine); subscribers cancelled re-entrantly stay in
    // place, skipped by their terminated flag, until the sweep.
    let count = subscribers.count
    var index = 0
    while index < count {
      if let entry = subscribers[index] { withConduit(entry) { $0.offer(value) } }
      index += 1
    }
  }

  @inlinable
  func handleCompletion(_ completion: Subscribers.Completion<Failure>) {
    guard self.completion == nil else { return }
    self.completion = completion
    let count = subscribers.count
    var index = 0
    while index < count {
      if let entry = subscribers[index] {
        withConduit(entry) { conduit in
          // A subscriber behind in a replay buffer receives the completion after the values it
          // is owed (``catchUp(_:)``).
          if kind.replaysLatestValues, conduit.isBehind { return }
          if conduit.terminate() { conduit.finish(completion) }
        }
      }
      index += 1
    }
    needsSweep = true
  }
}
