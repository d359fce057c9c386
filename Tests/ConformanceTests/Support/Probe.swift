import CombineEx

/// How the probe asks for more values after each one it receives.
enum DemandMode: String, Sendable, CaseIterable {
  /// Returns the demand from `receive(_:)`.
  case returned
  /// Calls `request` on the subscription from inside `receive(_:)` (re-entrant request).
  case requestedInside
  /// Calls `request` after `receive(_:)` returned (the harness flushes it).
  case deferred
  /// Calls `request` from inside `receive(_:)`, then makes an upstream send its next value,
  /// nested inside the delivery (re-entrant request and send).
  case requestedInsideWithNestedSend
}

/// What the probe does while it receives: its demand and its re-entrant calls.
struct ProbeBehaviour: Sendable, CustomStringConvertible {
  /// Requested from inside `receive(subscription:)`.
  var initialDemand: Subscribers.Demand = .unlimited
  /// The demand asked for after the n-th value is `demandAfterValue[n % count]`.
  var demandAfterValue: [Int] = [0]
  /// How that demand is asked for.
  var mode = DemandMode.returned
  /// Cancel from inside `receive(_:)` of this value (1-based).
  var cancelAtValue: Int?
  /// Cancel from inside `receive(subscription:)`, before requesting anything.
  var cancelInSubscription = false
  /// From inside `receive(completion:)`, request and cancel (both must be silent no-ops).
  var callsBackOnCompletion = false
  /// Cancel twice whenever it cancels (the second must be a silent no-op).
  var cancelsTwice = false
  /// Keep the subscription after the stream ended, and misuse it at every later step:
  /// request (finite and unlimited) and cancel again. All must be silent no-ops.
  var misusesAfterEnd = false

  var description: String {
    var parts = ["initial \(initialDemand.short)", "then \(demandAfterValue) \(mode.rawValue)"]
    if let cancelAtValue { parts.append("cancel inside value #\(cancelAtValue)") }
    if cancelInSubscription { parts.append("cancel inside receive(subscription:)") }
    if callsBackOnCompletion { parts.append("request+cancel inside receive(completion:)") }
    if cancelsTwice { parts.append("cancels twice") }
    if misusesAfterEnd { parts.append("requests and cancels after the end") }
    return parts.joined(separator: ", ")
  }
}

/// The subscriber at the end of every pipeline the harness builds. It checks the rules as
/// events arrive (subscription first and once, never more values than it asked for, nothing
/// after the completion or after its cancel, at most one completion, never two deliveries at
/// once), records what it receives, and, like `Subscribers.Sink`, lets go of its subscription
/// when the stream ends, so that leak checks see only what the pipeline itself holds.
final class Probe<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: every mutable property is guarded by `lock`; `nestedSend` and
  // `onEnd` are set before the probe is subscribed.
  let behaviour: ProbeBehaviour
  /// Makes an upstream send its next value (for `.requestedInsideWithNestedSend`).
  var nestedSend: (() -> Void)?
  /// Called once, when the stream ends (completion or cancel).
  var onEnd: (() -> Void)?

  private let lock = NSLockBox()
  private var subscription: (any Subscription)?
  private var subscribed = false
  private var recorded: [String] = []
  private var problems: [String] = []
  private var granted = Subscribers.Demand.none
  private var received = 0
  private var completed = false
  private var cancelled = false
  private var deferred = Subscribers.Demand.none
  private var deliveringThread: UInt = 0
  private var depth = 0
  private var watch: [WeakReference] = []
  /// The subscription, kept after the end for `misusesAfterEnd`.
  private var endedSubscription: (any Subscription)?

  init(behaviour: ProbeBehaviour) {
    self.behaviour = behaviour
  }

  // MARK: What was seen

  /// The values and the completion, in order (`v:<value>`, `finished`, `failure:<error>`).
  var events: [String] { lock.withLock { recorded } }
  /// Rule violations seen as events arrived.
  var violations: [String] { lock.withLock { problems } }
  var receivedCount: Int { lock.withLock { received } }
  var isCompleted: Bool { lock.withLock { completed } }
  var isCancelled: Bool { lock.withLock { cancelled } }
  var hasEnded: Bool { lock.withLock { completed || cancelled } }
  /// The demand granted and not yet used.
  var outstanding: Subscribers.Demand {
    lock.withLock { granted == .unlimited ? .unlimited : granted - received }
  }
  /// Weak references to the subscriptions it received.
  var subscriptionWatch: [WeakReference] { lock.withLock { watch } }

  // MARK: Subscriber

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard !subscribed else {
        problems.append("receive(subscription:) was called a second time")
        return false
      }
      // Like a Sink: a subscription that arrives after a cancel (a publisher may hand it over
      // later, from a scheduler) is cancelled at once.
      guard !cancelled else { return false }
      subscribed = true
      self.subscription = subscription
      if type(of: subscription) is AnyClass,
        subscription.combineIdentifier != Subscriptions.empty.combineIdentifier
      {
        watch.append(WeakReference("the subscription \(subscription)", subscription as AnyObject))
      }
      if !behaviour.cancelInSubscription { granted += behaviour.initialDemand }
      return true
    }
    guard accepted else {
      subscription.cancel()
      return
    }
    if behaviour.cancelInSubscription {
      cancel()
    } else if behaviour.initialDemand > 0 {
      subscription.request(behaviour.initialDemand)
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let me = currentThreadNumber()
    let (index, wanted) = lock.withLock { () -> (Int, Int) in
      if depth > 0, deliveringThread != me {
        problems.append("receive(_:) was called on two threads at once")
      }
      depth += 1
      deliveringThread = me
      if !subscribed { problems.append("a value arrived before the subscription") }
      if completed { problems.append("a value arrived after the completion: \(input)") }
      if cancelled { problems.append("a value arrived after cancel: \(input)") }
      received += 1
      if granted < received {
        problems.append(
          "value #\(received) (\(input)) exceeds the demand granted so far (\(granted.short))")
      }
      recorded.append("v:\(input)")
      let plan = behaviour.demandAfterValue
      return (received, plan.isEmpty ? 0 : plan[(received - 1) % plan.count])
    }
    defer {
      lock.withLock {
        depth -= 1
        if depth == 0 { deliveringThread = 0 }
      }
    }
    if behaviour.cancelAtValue == index {
      cancel()
      return .none
    }
    switch behaviour.mode {
    case .returned:
      guard wanted > 0 else { return .none }
      lock.withLock { granted += wanted }
      return .max(wanted)
    case .requestedInside:
      if wanted > 0 { request(.max(wanted)) }
      return .none
    case .deferred:
      lock.withLock { deferred += wanted }
      return .none
    case .requestedInsideWithNestedSend:
      if wanted > 0 { request(.max(wanted)) }
      if !hasEnded { nestedSend?() }
      return .none
    }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (taken, first) = lock.withLock { () -> ((any Subscription)?, Bool) in
      if !subscribed { problems.append("the completion arrived before the subscription") }
      if completed { problems.append("a second completion arrived: \(completion)") }
      if cancelled { problems.append("a completion arrived after cancel: \(completion)") }
      if depth > 0, deliveringThread != currentThreadNumber() {
        problems.append("receive(completion:) was called during a delivery on another thread")
      }
      let first = !completed && !cancelled
      completed = true
      switch completion {
      case .finished: recorded.append("finished")
      case .failure(let error): recorded.append("failure:\(error)")
      }
      defer { subscription = nil }
      if behaviour.misusesAfterEnd, endedSubscription == nil { endedSubscription = subscription }
      return (subscription, first)
    }
    if behaviour.callsBackOnCompletion, let taken {
      taken.request(.max(1))
      taken.cancel()
    }
    if first { onEnd?() }
  }

  // MARK: Control

  /// Asks for more values. A scenario's request of zero is not passed on: as in Combine, a
  /// request of zero stops the program in some operators (`dropFirst`, `drop(while:)`,
  /// `collect(_:)`, `replaceEmpty`); those operators' own tests cover it.
  func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    let target = lock.withLock { () -> (any Subscription)? in
      guard let subscription else { return nil }
      granted += demand
      return subscription
    }
    target?.request(demand)
  }

  /// Requests the demand that `.deferred` set aside; returns whether there was any.
  func flushDeferred() -> Bool {
    let (target, demand) = lock.withLock { () -> ((any Subscription)?, Subscribers.Demand) in
      defer { deferred = .none }
      guard let subscription, deferred > 0 else { return (nil, .none) }
      granted += deferred
      return (subscription, deferred)
    }
    guard let target else { return false }
    target.request(demand)
    return true
  }

  /// For `misusesAfterEnd`: requests and cancels again through the subscription kept after
  /// the end.
  func misuseAfterEnd() {
    guard let subscription = lock.withLock({ endedSubscription }) else { return }
    subscription.request(.max(3))
    subscription.request(.unlimited)
    subscription.cancel()
  }

  /// Lets go of the subscription kept for `misusesAfterEnd` (before leak checks).
  func releaseEndedSubscription() {
    let released = lock.withLock { () -> (any Subscription)? in
      defer { endedSubscription = nil }
      return endedSubscription
    }
    _ = released
  }

  /// Cancels the subscription (once; later calls do nothing) and lets go of it.
  func cancel() {
    let taken = lock.withLock { () -> (any Subscription)? in
      guard !cancelled, !completed else { return nil }
      cancelled = true
      defer { subscription = nil }
      if behaviour.misusesAfterEnd { endedSubscription = subscription }
      return subscription
    }
    guard let taken else { return }
    taken.cancel()
    if behaviour.cancelsTwice { taken.cancel() }
    onEnd?()
  }
}
