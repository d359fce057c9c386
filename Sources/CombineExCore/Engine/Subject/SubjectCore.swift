import Synchronization

/// The machinery shared by ``PassthroughSubject``, ``CurrentValueSubject`` and CombineEx's
/// subject-like types (`MutableProperty`, `ReplaySubject`): one implementation of Combine's
/// threading contract for subjects (ARCHITECTURE.md rules 5 and 6).
///
/// ## The delivery token
/// Everything that touches the subscriber list or calls a subscriber (sending a value or a
/// completion, attaching, detaching, replaying) runs as a ``SubjectEvent`` handled by the one
/// thread that holds the *delivery token*, an atomic word holding that thread's identity:
/// - Uncontended, `perform` takes the token with one compare-and-swap, handles the event, and
///   gives the token back with another. No lock is taken and nothing is allocated.
/// - Re-entrant calls (the token holder's own thread, from inside a subscriber) are handled at
///   once, nested inside the current delivery: that is the order Apple's Combine gives. A
///   subject that does not nest deliveries (`MutableProperty`) queues a re-entrant value or
///   completion instead; the holder delivers it after the current delivery, before it gives
///   the token back, so before the outer send returns.
/// - **A value, a completion or an attach from another thread while the token is held waits**
///   until the holder gives the token back, then takes it and is handled on its own thread.
///   So a send returns only after every subscriber attached when it began (with demand) has
///   received it, on the sending thread, as in Combine. The waiting thread spins briefly, then
///   sleeps (``Parking``); it never spins for the length of a delivery.
/// - **A cancel or a request from another thread never waits**: it is queued (under `lock`) and
///   the holder handles it before giving the token back. (The cancelled subscriber receives
///   nothing more at once: its conduit is marked terminated before the event is queued; a
///   request's demand is added at once too, and only a replay it makes possible is left to the
///   holder.) A subscriber whose `receive` waits for another thread that cancels it, or asks it
///   for more, must not deadlock, and Combine's cancel does not wait either.
///
/// Delivery to each subscriber is therefore serial. The cost is Combine's: a subscriber that
/// synchronously waits for another thread that sends to the same subject deadlocks, and two
/// threads delivering two subjects whose subscribers send to each other's subject deadlock, as
/// two locks taken in opposite orders do. Waiting threads are not served first-come
/// first-served (like a lock's, not a queue's).
///
/// The token word's two low bits are flags (thread identities are pointers, so they are
/// otherwise zero): ``queuedFlag`` (events are queued for the holder) and ``waitingFlag`` (a
/// thread may be asleep waiting for the token). Either makes the holder's release take the slow
/// path, which drains the queue, then wakes the sleepers.
@usableFromInline
package final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: `token` and `upstreamDemanded` are atomic; `queue` and
  // `upstreamSubscriptions` are guarded by `lock`; every other stored property is touched only by
  // the token holder.
  @usableFromInline
  let token = Atomic<UInt>(0)

  @usableFromInline
  package let lock = Lock()

  /// Events waiting for the token holder, as closures that handle them. Guarded by `lock`.
  /// (Closures rather than ``SubjectEvent`` values keep the stored types non-generic, which
  /// makes creating and destroying a subject cheaper; they are only allocated under
  /// contention.)
  @usableFromInline
  var queue: [() -> Void] = []

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

  /// Attached subscribers (``SubjectConduit`` instances) in subscription order, each retained
  /// once by this array, manually, so that delivery walks it without reference counting.
  /// Token holder only. While an event is being handled (`depth > 0`) entries are only
  /// appended, never removed: subscribers cancelled then are skipped by their terminated flag
  /// and swept out by ``sweep()`` once the outermost event is handled. A subscriber cancelled
  /// outside any delivery is removed on its own (``remove(_:)``): its entry becomes `nil` (a
  /// hole, so that the others keep their order and their indices), and the holes are squeezed
  /// out once they outnumber the live entries, so a cancel costs O(1), amortized, however many
  /// subscribers there are.
  @usableFromInline
  @exclusivity(unchecked)
  var conduits: ContiguousArray<Unmanaged<AnyObject>?> = []

  /// How many entries of `conduits` are holes (`nil`). Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var holes = 0

  /// Where ``remove(_:)`` starts looking for the next subscriber to remove: the index of the
  /// last one removed. Subscriptions are usually cancelled in (or against) the order they were
  /// made, so the next one is found next to it. Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var removalHint = 0

  /// How many events the token holder is handling, nested. Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var depth = 0

  /// Whether `conduits` holds terminated subscribers to sweep out. Token holder only.
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

  /// The completion, once it has been handled. Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var completion: Subscribers.Completion<Failure>?

  /// The value as of the events handled so far (replaying subjects). Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var replayValue: Output?

  /// Whether new subscribers (and subscribers that missed values for lack of demand) receive
  /// the current value on demand, as ``CurrentValueSubject`` does.
  @usableFromInline
  let replaysCurrentValue: Bool

  /// The latest values, for a subject that replays several (CombineEx's `ReplaySubject`): new
  /// subscribers, and subscribers that missed values for lack of demand, receive the kept
  /// values they have not received on demand, then the completion. Token holder only.
  @usableFromInline
  package let replayBuffer: SubjectReplayBuffer<Output>?

  /// Whether the subject replays anything (`replaysCurrentValue` or `replayBuffer`): a
  /// subscriber without demand is then *behind* rather than simply missing values.
  @usableFromInline
  let replays: Bool

  /// Entry points for calls that arrive through `any Subscription` (a subscriber's `cancel` and
  /// `request`), where the subject's types are not known. They are created in `init`, which
  /// is compiled where the subject is created, so they jump into specialized code instead of
  /// running the generic code that the existential call reaches.
  @usableFromInline
  let performDetach: (SubjectCore<Output, Failure>, SubjectConduit<Output, Failure>) -> Void

  @usableFromInline
  let performDemand: (SubjectCore<Output, Failure>, SubjectConduit<Output, Failure>) -> Void

  /// Token flag: events are queued for the holder.
  @usableFromInline
  static var queuedFlag: UInt { 1 }

  /// Token flag: a thread may be asleep waiting for the token.
  @usableFromInline
  static var waitingFlag: UInt { 2 }

  /// Both token flags.
  @usableFromInline
  static var flags: UInt { 3 }

  /// Whether a value or completion sent from inside a delivery (on the delivering thread) is
  /// delivered at once, nested (subjects, like Combine), or after the current delivery
  /// (`MutableProperty`, so that every subscriber sees the same order).
  @usableFromInline
  let nestsReentrantDeliveries: Bool

  /// What its subscriptions' `description` says instead of the subject's kind (`Published`'s
  /// and `ObservableObjectPublisher`'s, as Combine's: "PublishedSubject",
  /// "ObservableObjectPublisher").
  @usableFromInline
  let subscriptionName: String?

  /// The name of the subject's kind: what its subscriptions' `description` says, as Combine's.
  @usableFromInline
  var name: String {
    if let subscriptionName { return subscriptionName }
    if replayBuffer != nil { return "ReplaySubject" }
    return replaysCurrentValue ? "CurrentValueSubject" : "PassthroughSubject"
  }

  /// Whether its subscriptions' mirrors show the subject and the demand (all but an
  /// `ObservableObjectPublisher`'s, whose mirror in Combine shows the subscriber only).
  @usableFromInline
  var reflectsParent: Bool { subscriptionName != ObservableObjectPublisher.subscriptionName }

  @inlinable
  package init(
    replaying initialValue: Output?, nestsReentrantDeliveries: Bool = true,
    subscriptionName: String? = nil
  ) {
    self.subscriptionName = subscriptionName
    self.nestsReentrantDeliveries = nestsReentrantDeliveries
    replaysCurrentValue = initialValue != nil
    replays = initialValue != nil
    replayBuffer = nil
    replayValue = initialValue
    upstreamDemanded = Atomic(initialValue != nil)
    performDetach = { $0.perform(.detach($1)) }
    performDemand = { $0.perform(.demand($1)) }
  }

  /// A core that replays the `bufferSize` latest values (CombineEx's `ReplaySubject`). Like a
  /// `CurrentValueSubject`, it requests from its upstreams at once.
  @inlinable
  package init(replayingLatest bufferSize: Int) {
    subscriptionName = nil
    nestsReentrantDeliveries = true
    replaysCurrentValue = false
    replays = true
    replayBuffer = SubjectReplayBuffer(capacity: bufferSize)
    replayValue = nil
    upstreamDemanded = Atomic(true)
    performDetach = { $0.perform(.detach($1)) }
    performDemand = { $0.perform(.demand($1)) }
  }

  deinit {
    for entry in conduits { entry?.release() }
  }

  // MARK: Performing events

  /// What the caller of ``admit(_:me:)`` must do with its event.
  @usableFromInline
  enum Admission {
    /// The caller took the token: handle the event, then release the token.
    case handleAndRelease
    /// The caller already holds the token (a re-entrant call): handle the event, nested.
    case handleNested
    /// The caller must queue the event for the token holder (under `lock`; the queued flag is
    /// already set).
    case enqueue
    /// Another thread holds the token: wait until it is released, then try again.
    case wait
  }

  /// Handles `event` now if this thread holds or can take the token; otherwise waits for the
  /// token (values, completions, attaches) or queues the event for the holder (cancels and
  /// requests). See the type's documentation.
  @inlinable
  package func perform(_ event: SubjectEvent<Output, Failure>) {
    let me = currentThreadIdentity()
    Interleaving.point("token.take")
    if token.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
      handle(event)
      releaseToken(me)
    } else if token.load(ordering: .relaxed) & ~Self.flags == me,
      nestsReentrantDeliveries || !event.isDelivery
    {
      handle(event)  // Re-entrant: nested inside the event being handled.
    } else {
      performContended(event, me: me)
    }
  }

  /// Runs `body` holding the delivery token, as an event is handled: at once if this thread
  /// holds it (nested), otherwise once it is free (waiting for it, as a `send` does). For what
  /// only the token holder may read, when asked from outside (a subscription's mirror); the
  /// events queued meanwhile are handled when the token is given back.
  @usableFromInline
  func withDeliveryToken<Result>(_ body: () -> Result) -> Result {
    let me = currentThreadIdentity()
    while true {
      let word = token.load(ordering: .acquiring)
      if word & ~Self.flags == me { return body() }
      if word == 0 {
        guard token.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged
        else { continue }
        let result = body()
        releaseToken(me)
        return result
      }
      waitForToken(me)
    }
  }

  /// `perform` when the token is held: by this thread (a re-entrant event this subject queues)
  /// or by another one.
  @inlinable
  func performContended(_ event: SubjectEvent<Output, Failure>, me: UInt) {
    while true {
      let admission = lock.withLock { () -> Admission in
        let admission = admit(event, me: me)
        if case .enqueue = admission { queue.append { [self] in handle(event) } }
        return admission
      }
      if case .wait = admission {
        waitForToken(me)
        continue
      }
      carryOut(admission, event, me: me)
      return
    }
  }

  /// Performs a value or completion for a replaying subject: `commit` (which stores the new
  /// value, or refuses it by returning `false`) runs under `lock`, atomically with taking the
  /// token (or queueing the event), so that the stored value and the order of deliveries always
  /// agree, whatever the threads. A caller that must wait for the token commits only once it
  /// has it. `commit` receives the calling thread's identity (`MutableProperty.modify` uses it).
  @inlinable
  package func perform(
    _ event: SubjectEvent<Output, Failure>, committing commit: (_ thread: UInt) -> Bool
  ) {
    let me = currentThreadIdentity()
    while true {
      let admission = lock.withLock { () -> Admission? in
        let admission = admit(event, me: me)
        switch admission {
        case .wait:
          return .wait
        case .handleAndRelease:
          if commit(me) { return .handleAndRelease }
          // Refused: give the token back (after the lock; events may have been queued).
          return nil
        case .handleNested:
          // Refused: nothing to do (`.enqueue` with nothing queued).
          return commit(me) ? .handleNested : .enqueue
        case .enqueue:
          guard commit(me) else { return .enqueue }  // Refused: nothing queued.
          queue.append { [self] in handle(event) }
          return .enqueue
        }
      }
      switch admission {
      case .wait?:
        waitForToken(me)
        continue
      case nil:
        releaseToken(me)
      case let admission?:
        carryOut(admission, event, me: me)
      }
      return
    }
  }

  @inlinable
  func carryOut(_ admission: Admission, _ event: SubjectEvent<Output, Failure>, me: UInt) {
    switch admission {
    case .handleAndRelease:
      handle(event)
      releaseToken(me)
    case .handleNested:
      handle(event)
    case .enqueue, .wait:
      break
    }
  }

  /// Decides, with `lock` held, what the calling thread does with `event`: take the token, handle
  /// it nested, queue it (setting the queued flag), or wait.
  @inlinable
  func admit(_ event: SubjectEvent<Output, Failure>, me: UInt) -> Admission {
    while true {
      let word = token.load(ordering: .acquiring)
      if word == 0 {
        if token.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
          return .handleAndRelease
        }
        continue
      }
      if word & ~Self.flags == me {
        if nestsReentrantDeliveries || !event.isDelivery { return .handleNested }
      } else if event.waitsForToken {
        return .wait
      }
      if word & Self.queuedFlag == 0 {
        let flagged = token.compareExchange(
          expected: word, desired: word | Self.queuedFlag, ordering: .acquiringAndReleasing)
        guard flagged.exchanged else { continue }
      }
      return .enqueue
    }
  }

  /// Sleeps until the token is released (after a short spin), setting the waiting flag so that
  /// the holder's release wakes this thread.
  @usableFromInline
  func waitForToken(_ me: UInt) {
    for _ in 0..<100 where token.load(ordering: .relaxed) == 0 {
      return
    }
    Parking.park(on: parkingAddress) {
      while true {
        let word = token.load(ordering: .acquiring)
        if word == 0 { return false }
        if word & Self.waitingFlag != 0 { return true }
        if token.compareExchange(
          expected: word, desired: word | Self.waitingFlag, ordering: .acquiringAndReleasing
        ).exchanged {
          return true
        }
      }
    }
  }

  /// The address threads waiting for this subject's token park on.
  @usableFromInline
  var parkingAddress: UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
  }

  /// Gives the token back: one compare-and-swap, unless a flag is set.
  @inlinable
  func releaseToken(_ me: UInt) {
    Interleaving.point("token.release")
    if !token.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged {
      releaseTokenContended(me)
    }
  }

  /// Gives the token back when a flag is set: first handles every queued event (still holding
  /// the token), then releases it and wakes the threads waiting for it.
  @usableFromInline
  func releaseTokenContended(_ me: UInt) {
    while true {
      let (batch, wakeWaiters) = lock.withLock { () -> ([() -> Void], Bool) in
        if !queue.isEmpty {
          // Clear the queued flag only: the waiting flag stays for the final release.
          token.bitwiseAnd(~Self.queuedFlag, ordering: .acquiringAndReleasing)
          defer { queue = [] }
          return (queue, false)
        }
        let released = token.exchange(0, ordering: .releasing)
        return ([], released & Self.waitingFlag != 0)
      }
      if batch.isEmpty {
        if wakeWaiters { Parking.unparkAll(on: parkingAddress) }
        return
      }
      for handleEvent in batch {
        Interleaving.point("token.handOver")  // An event another thread queued for the holder.
        handleEvent()
      }
    }
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
      if replayBuffer != nil {
        catchUp(conduit)
      } else if completion == nil, let replayValue {
        conduit.offerCurrentValue(replayValue)
      }
    }
    depth -= 1
    if depth == 0, needsSweep { sweep() }
  }

  /// The conduit of an entry of `conduits`, borrowed from the array's retain.
  @inlinable
  func withConduit<Result>(
    _ entry: Unmanaged<AnyObject>, _ body: (SubjectConduit<Output, Failure>) -> Result
  ) -> Result {
    entry._withUnsafeGuaranteedRef { object in
      // Only conduits of this subject are stored in the array.
      body(unsafeDowncast(object, to: SubjectConduit<Output, Failure>.self))
    }
  }

  @inlinable
  func handleValue(_ value: Output) {
    guard completion == nil else { return }
    if replaysCurrentValue { replayValue = value }
    // Subscribers attached by a re-entrant call are appended past `count`, so they do not
    // receive the value being sent (as in Combine); subscribers cancelled re-entrantly stay in
    // place, skipped by their terminated flag, until the sweep.
    let count = conduits.count
    var index = 0
    while index < count {
      if let entry = conduits[index] { withConduit(entry) { $0.offer(value) } }
      index += 1
    }
  }

  @inlinable
  func handleCompletion(_ completion: Subscribers.Completion<Failure>) {
    guard self.completion == nil else { return }
    self.completion = completion
    let count = conduits.count
    var index = 0
    while index < count {
      if let entry = conduits[index] {
        withConduit(entry) { conduit in
          // A subscriber behind in a replay buffer receives the completion after the values it
          // is owed (``catchUp(_:)``).
          if replayBuffer != nil, conduit.isBehind { return }
          if conduit.terminate() { conduit.finish(completion) }
        }
      }
      index += 1
    }
    needsSweep = true
  }

  /// Delivers to a subscriber that is behind in the replay buffer the values it has not
  /// received, as far as its demand goes, then the completion once it has caught up (token
  /// holder only). Re-entrant: the cursor moves before each delivery, so a nested call (a
  /// value sent from inside the subscriber) carries on from where this one was.
  @usableFromInline
  func catchUp(_ conduit: SubjectConduit<Output, Failure>) {
    guard let replayBuffer else { return }
    while true {
      let state = conduit.state.load(ordering: .acquiring)
      Interleaving.point("replay.catchUp.loaded")
      if state & SubjectConduitState.terminated != 0 {
        replayBuffer.forget(conduit)
        return
      }
      if replayBuffer.isCaughtUp(conduit) {
        // No longer behind; the completion, if there was one, follows (it needs no demand).
        conduit.state.bitwiseAnd(~SubjectConduitState.owesCurrentValue, ordering: .relaxed)
        replayBuffer.forget(conduit)
        if let completion, conduit.terminate() {
          conduit.finish(completion)
          needsSweep = true
        }
        return
      }
      let demand = state & SubjectConduitState.demandMask
      guard demand > 0, let value = replayBuffer.takeNext(for: conduit) else { return }
      if demand != SubjectConduitState.unlimited {
        conduit.state.subtract(1, ordering: .relaxed)
      }
      let more = conduit.send(conduit, value)
      if more != .none { conduit.addDemand(more) }
    }
  }

  @inlinable
  func handleAttach(
    _ conduit: SubjectConduit<Output, Failure>,
    start: (SubjectConduit<Output, Failure>) -> Void
  ) {
    if let replayBuffer, !replayBuffer.isEmpty {
      // Behind from the oldest kept value; after a completion, the completion follows them.
      conduit.state.bitwiseOr(SubjectConduitState.owesCurrentValue, ordering: .relaxed)
      replayBuffer.startFromOldest(conduit)
    } else if let completion {
      conduit.startCompleted(completion)
      return
    }
    conduits.append(Unmanaged.passRetained(conduit))
    if keptOwner == nil { keptOwner = owner }
    start(conduit)
  }

  /// Removes terminated subscribers and releases them, once no event is being handled.
  /// Releasing may run deinitializers that call back into the subject: the array is already
  /// consistent when they do, and they see `depth == 0`.
  @inlinable
  func sweep() {
    needsSweep = false
    var kept = 0
    var released: Unmanaged<AnyObject>?
    var moreReleased: [Unmanaged<AnyObject>] = []
    for index in conduits.indices {
      guard let entry = conduits[index] else { continue }
      if withConduit(entry, { $0.isTerminated }) {
        if released == nil { released = entry } else { moreReleased.append(entry) }
      } else {
        conduits[kept] = entry
        kept += 1
      }
    }
    conduits.removeLast(conduits.count - kept)
    holes = 0
    removalHint = 0
    if let released { releaseConduit(released) }
    for entry in moreReleased { releaseConduit(entry) }
    releaseOwnerIfUnsubscribed()
  }

  /// Removes one cancelled subscriber and releases it, outside any delivery. Its entry becomes
  /// a hole (or is dropped, at the end of the array); once holes outnumber live entries, they
  /// are squeezed out in one pass, so each removal costs O(1), amortized.
  @usableFromInline
  func remove(_ conduit: SubjectConduit<Output, Failure>) {
    // Not found: a sweep already released it (the subject completed meanwhile).
    guard let index = index(of: conduit), let entry = conduits[index] else { return }
    if index == conduits.count - 1 {
      conduits.removeLast()
      while let last = conduits.last, last == nil {
        conduits.removeLast()
        holes -= 1
      }
    } else {
      conduits[index] = nil
      holes += 1
    }
    removalHint = index
    if holes > 8, holes * 2 > conduits.count { squeezeHoles() }
    releaseConduit(entry)
    releaseOwnerIfUnsubscribed()
  }

  /// Lets go of the owner once no subscriber is attached (the last one was removed or swept
  /// out). Called last, with the subscriber list consistent and no event being handled: the
  /// release may run the subject's `deinit` (which cancels its upstreams), and the subscribers'
  /// releases just before may have attached new ones (then the owner is kept).
  @inlinable
  func releaseOwnerIfUnsubscribed() {
    guard conduits.isEmpty, keptOwner != nil else { return }
    keptOwner = nil
  }

  /// The index of `conduit` in `conduits`, looking outwards from `removalHint`.
  @usableFromInline
  func index(of conduit: SubjectConduit<Output, Failure>) -> Int? {
    let target = Unmanaged.passUnretained(conduit as AnyObject).toOpaque()
    let count = conduits.count
    guard count > 0 else { return nil }
    let hint = min(removalHint, count - 1)
    var distance = 0
    while hint - distance >= 0 || hint + distance < count {
      let above = hint + distance
      if above < count, conduits[above]?.toOpaque() == target { return above }
      let below = hint - distance
      if below >= 0, distance > 0, conduits[below]?.toOpaque() == target { return below }
      distance += 1
    }
    return nil
  }

  /// Drops the holes from `conduits`, keeping the order of the live entries.
  @usableFromInline
  func squeezeHoles() {
    var kept = 0
    var hint = 0
    for index in conduits.indices {
      guard let entry = conduits[index] else { continue }
      if index < removalHint { hint += 1 }
      conduits[kept] = entry
      kept += 1
    }
    conduits.removeLast(conduits.count - kept)
    holes = 0
    removalHint = hint
  }

  @inlinable
  func releaseConduit(_ entry: Unmanaged<AnyObject>) {
    entry._withUnsafeGuaranteedRef { object in
      replayBuffer?.forget(object)
      unsafeDowncast(object, to: SubjectConduit<Output, Failure>.self).release()
    }
    entry.release()
  }

  // MARK: Upstream subscriptions

  /// Keeps a subscription sent to the subject (to cancel it when the subject goes away) and
  /// requests unlimited values from it, as Combine's subjects do: at once if the subject has had
  /// downstream demand (always, for replaying subjects), otherwise when the first downstream
  /// demand arrives (``requestUpstreamOnce()``), so that values an upstream would send before
  /// anyone wants them are not lost. Values that arrive after the subject completed are ignored
  /// like any other send.
  ///
  /// Subscriptions that have ended (the core's own, from `subscribe(_ subject:)` and
  /// `multicast`, which tell: ``EndingSubscription``) are dropped here, so a subject that is
  /// connected again and again (`share()`) does not keep every past connection.
  @usableFromInline
  package func receiveUpstream(_ subscription: any Subscription) {
    let kept = lock.withLock { upstreamSubscriptions }
    let ended = Set(
      kept.lazy.compactMap { $0 as? any EndingSubscription }.filter(\.hasEnded)
        .map(ObjectIdentifier.init))
    let (dropped, requestsNow) = lock.withLock { () -> ([any Subscription], Bool) in
      var dropped: [any Subscription] = []
      if !ended.isEmpty {
        var remaining: [any Subscription] = []
        for upstream in upstreamSubscriptions {
          if let ending = upstream as? any EndingSubscription,
            ended.contains(ObjectIdentifier(ending))
          {
            dropped.append(upstream)
          } else {
            remaining.append(upstream)
          }
        }
        upstreamSubscriptions = remaining
      }
      upstreamSubscriptions.append(subscription)
      return (dropped, upstreamDemanded.load(ordering: .relaxed))
    }
    _ = dropped  // Released here, after the lock.
    if requestsNow { subscription.request(.unlimited) }
  }

  /// Requests unlimited values from every upstream subscription, the first time a subscriber
  /// asks for values (a ``PassthroughSubject``'s first downstream demand, as in Combine).
  @usableFromInline
  func requestUpstreamOnce() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      guard !upstreamDemanded.load(ordering: .relaxed) else { return [] }
      upstreamDemanded.store(true, ordering: .relaxed)
      return upstreamSubscriptions
    }
    for subscription in subscriptions {
      subscription.request(.unlimited)
    }
  }

  /// Cancels every subscription sent to the subject; called when the subject goes away.
  @usableFromInline
  package func cancelUpstream() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      defer { upstreamSubscriptions = [] }
      return upstreamSubscriptions
    }
    for subscription in subscriptions {
      subscription.cancel()
    }
  }
}
