import Synchronization

/// The machinery shared by ``PassthroughSubject`` and ``CurrentValueSubject``.
///
/// ## The delivery token
/// Everything that touches the subscriber list or calls a subscriber (sending a value or a
/// completion, attaching, detaching, replaying the current value) runs as a ``SubjectEvent``
/// performed by the one thread that holds the *delivery token*, an atomic word holding that
/// thread's identity:
/// - Uncontended, `perform` takes the token with one compare-and-swap, handles the event, and
///   gives the token back with another. No lock is taken and nothing is allocated.
/// - Re-entrant calls (the token holder's own thread, from inside a subscriber) are handled at
///   once, nested inside the current delivery: that is the order Apple's Combine gives.
/// - A call from another thread while the token is held is queued (under `lock`) and the holder
///   handles it before giving the token back. No thread ever waits for another, so a subscriber
///   that blocks on a second thread which sends to the same subject cannot deadlock it, and no
///   lock is held while calling out.
///
/// Delivery to each subscriber is therefore serial, and events are handled in the order they
/// were performed (first-in first-out across threads).
///
/// The token word's low bit means "events are queued"; thread identities are pointers, so it
/// is otherwise always zero.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: `token` is atomic; `queue` and `upstreamSubscriptions` are guarded by
  // `lock`; every other stored property is touched only by the token holder.
  @usableFromInline
  let token = Atomic<UInt>(0)

  @usableFromInline
  let lock = Lock()

  /// Events waiting for the token holder. Guarded by `lock`.
  @usableFromInline
  var queue: [SubjectEvent<Output, Failure>] = []

  /// Subscriptions received through `send(subscription:)`. Guarded by `lock`.
  @usableFromInline
  var upstreamSubscriptions: [any Subscription] = []

  /// Attached, live subscribers. Token holder only.
  @usableFromInline
  @exclusivity(unchecked)
  var conduits: ContiguousArray<SubjectConduit<Output, Failure>> = []

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

  @usableFromInline
  static var queuedFlag: UInt { 1 }

  @inlinable
  init(replaying initialValue: Output?) {
    replaysCurrentValue = initialValue != nil
    replayValue = initialValue
  }

  // MARK: Performing events

  /// Handles `event` now if this thread holds or can take the token; otherwise queues it for
  /// the holder.
  @inlinable
  func perform(_ event: SubjectEvent<Output, Failure>) {
    let me = currentThreadIdentity()
    if token.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
      handle(event)
      releaseToken(me)
    } else if token.load(ordering: .relaxed) & ~Self.queuedFlag == me {
      handle(event)  // Re-entrant: nested inside the delivery in progress.
    } else {
      performContended(event, me: me)
    }
  }

  /// The slow path of `perform`: another thread holds the token (or just released it).
  @usableFromInline
  func performContended(_ event: SubjectEvent<Output, Failure>, me: UInt) {
    let acquired = lock.withLock { () -> Bool in
      while true {
        let holder = token.load(ordering: .acquiring)
        if holder == 0 {
          if token.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
            return true
          }
          continue
        }
        if holder & Self.queuedFlag == 0 {
          let flagged = token.compareExchange(
            expected: holder, desired: holder | Self.queuedFlag, ordering: .acquiringAndReleasing)
          guard flagged.exchanged else { continue }
        }
        queue.append(event)
        return false
      }
    }
    if acquired {
      handle(event)
      releaseToken(me)
    }
  }

  /// Gives the token back, first handling every event queued while it was held.
  @inlinable
  func releaseToken(_ me: UInt) {
    while !token.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged {
      drainQueue(me)
    }
  }

  @usableFromInline
  func drainQueue(_ me: UInt) {
    let batch = lock.withLock { () -> [SubjectEvent<Output, Failure>] in
      token.store(me, ordering: .releasing)
      defer { queue = [] }
      return queue
    }
    for event in batch {
      handle(event)
    }
  }

  // MARK: Handling events (token holder only)

  @inlinable
  func handle(_ event: SubjectEvent<Output, Failure>) {
    switch event {
    case .value(let value):
      handleValue(value)
    case .completion(let completion):
      handleCompletion(completion)
    case .attach(let conduit):
      handleAttach(conduit)
    case .detach(let conduit):
      handleDetach(conduit)
    case .demand(let conduit):
      if completion == nil, let replayValue {
        conduit.offerCurrentValue(replayValue)
      }
    }
  }

  @inlinable
  func handleValue(_ value: Output) {
    guard completion == nil else { return }
    if replaysCurrentValue { replayValue = value }
    // A snapshot: subscribers attached by a re-entrant call do not receive the value being
    // sent, and subscribers cancelled re-entrantly are skipped by their terminated flag.
    let snapshot = conduits
    for conduit in snapshot {
      conduit.offer(value)
    }
  }

  @usableFromInline
  func handleCompletion(_ completion: Subscribers.Completion<Failure>) {
    guard self.completion == nil else { return }
    self.completion = completion
    let finished = conduits
    conduits = []
    for conduit in finished where conduit.terminate() {
      conduit.finish(completion)
    }
  }

  @usableFromInline
  func handleAttach(_ conduit: SubjectConduit<Output, Failure>) {
    if let completion {
      conduit.startCompleted(completion)
      return
    }
    conduits.append(conduit)
    conduit.start()
  }

  @usableFromInline
  func handleDetach(_ conduit: SubjectConduit<Output, Failure>) {
    if let index = conduits.firstIndex(where: { $0 === conduit }) {
      conduits.remove(at: index)
    }
    conduit.release()
  }

  // MARK: Upstream subscriptions

  /// Keeps a subscription sent to the subject and requests unlimited values from it, unless the
  /// subject already completed (then it is cancelled at once).
  @usableFromInline
  func receiveUpstream(_ subscription: any Subscription) {
    lock.withLock { upstreamSubscriptions.append(subscription) }
    subscription.request(.unlimited)
  }

  /// Cancels every subscription sent to the subject; called when the subject goes away.
  @usableFromInline
  func cancelUpstream() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      defer { upstreamSubscriptions = [] }
      return upstreamSubscriptions
    }
    for subscription in subscriptions {
      subscription.cancel()
    }
  }
}
