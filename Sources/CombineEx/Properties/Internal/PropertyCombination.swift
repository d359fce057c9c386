import CombineExCore

/// How a ``PropertyCombination`` pairs the values of its sources.
enum PropertyCombinationStrategy {
  /// Every change of any source publishes the latest value of each (`combineLatest`).
  case latest
  /// The n-th values of the sources are published together (`zip`).
  case zip
}

/// The publisher behind property `combineLatest` and `zip`: it subscribes to every source and
/// publishes arrays of their values, in the sources' order.
///
/// It is simpler than a general `combineLatest`/`zip` because its sources are properties: they
/// never fail and request-driven back-pressure does not matter (a property conflates for a slow
/// subscriber), so each source is asked for every value. Delivery is serial and no lock is held
/// while calling out:
/// - Combinations are queued in the order they were made, under the lock, and delivered by one
///   thread at a time (the *drainer*). A source that changes while a combination is being
///   delivered (from another thread, or re-entrantly from the subscriber) queues its
///   combination behind it, exactly like ``MutableProperty``.
/// - With `.latest`, a subscriber that has no demand left receives the latest combination when
///   it asks again (intermediate ones are dropped, as a property does).
/// - `.latest` finishes once every source finished (or one finished before giving a value);
///   `.zip` finishes once a finished source has no value left to pair, cancelling the others.
struct PropertyCombination<Element>: Publisher {
  typealias Output = [Element]
  typealias Failure = Never

  let sources: [AnyPublisher<Element, Never>]
  let strategy: PropertyCombinationStrategy

  func receive<S: Subscriber>(subscriber: S) where S.Input == [Element], S.Failure == Never {
    guard !sources.isEmpty else {
      Just([]).receive(subscriber: subscriber)
      return
    }
    let subscription = PropertyCombinationSubscription(
      strategy: strategy, sourceCount: sources.count, downstream: subscriber)
    subscriber.receive(subscription: subscription)
    subscription.subscribe(to: sources)
  }
}

/// The state of one subscription to a ``PropertyCombination``: a value type whose transitions
/// run under the subscription's lock and tell the caller what to do after unlocking.
struct PropertyCombinationState<Element> {
  /// What the drainer does next.
  enum Step {
    /// Deliver this combination.
    case deliver([Element])
    /// Deliver `.finished`: the subscription is over.
    case finish
    /// Nothing to do now: the caller is no longer the drainer.
    case idle
  }

  let strategy: PropertyCombinationStrategy

  /// `.latest`: each source's latest value (`nil` until its first one).
  private var latest: [Element?]

  /// `.zip`: each source's values not yet paired, oldest first.
  private var buffers: [FIFO<Element>]

  /// Which sources finished.
  private var finished: [Bool]

  /// How many sources hold nothing to combine: no value yet (`.latest`) or an empty buffer
  /// (`.zip`). A combination is made when it reaches zero.
  private var waitingCount: Int

  /// Combinations made and not yet delivered, oldest first.
  private var pending = FIFO<[Element]>()

  /// The downstream's outstanding demand.
  private var demand = Subscribers.Demand.none

  /// Whether a thread is delivering (the drainer).
  private var isDraining = false

  /// Whether the combination is over: `.finished` follows the pending combinations.
  private var isFinishing = false

  /// Whether the subscription finished or was cancelled. Nothing happens after it.
  private(set) var isTerminated = false

  init(strategy: PropertyCombinationStrategy, sourceCount: Int) {
    self.strategy = strategy
    latest = strategy == .latest ? Array(repeating: nil, count: sourceCount) : []
    buffers = strategy == .zip ? Array(repeating: FIFO(), count: sourceCount) : []
    finished = Array(repeating: false, count: sourceCount)
    waitingCount = sourceCount
  }

  /// What the caller must do after a transition, once it has unlocked.
  struct Effects {
    /// Start draining: the caller became the drainer.
    var drain = false
    /// Cancel the sources that still run: the combination is over.
    var cancelSources = false
  }

  /// A source sent a value.
  mutating func receive(_ value: Element, from index: Int) -> Effects {
    guard !isTerminated, !isFinishing else { return Effects() }
    switch strategy {
    case .latest:
      if latest[index] == nil { waitingCount -= 1 }
      latest[index] = value
      if waitingCount == 0 { enqueue(latest.map { $0! }) }
    case .zip:
      if buffers[index].isEmpty { waitingCount -= 1 }
      buffers[index].append(value)
      if waitingCount == 0 {
        var combination: [Element] = []
        combination.reserveCapacity(buffers.count)
        for source in buffers.indices {
          combination.append(buffers[source].popFirst()!)
          if buffers[source].isEmpty {
            waitingCount += 1
            if finished[source] { isFinishing = true }
          }
        }
        enqueue(combination)
      }
    }
    return Effects(drain: startDrainingIfNeeded(), cancelSources: isFinishing)
  }

  /// A source finished.
  mutating func receiveCompletion(from index: Int) -> Effects {
    guard !isTerminated, !isFinishing else { return Effects() }
    finished[index] = true
    switch strategy {
    case .latest:
      // Over when every source finished, or when one finished without a value: no
      // combination can come any more.
      if latest[index] == nil || !finished.contains(false) { isFinishing = true }
    case .zip:
      if buffers[index].isEmpty { isFinishing = true }
    }
    guard isFinishing else { return Effects() }
    return Effects(drain: startDrainingIfNeeded(), cancelSources: true)
  }

  /// The downstream asked for more. Returns whether the caller must start draining.
  mutating func request(_ more: Subscribers.Demand) -> Bool {
    guard !isTerminated else { return false }
    demand += more
    return startDrainingIfNeeded()
  }

  /// The downstream returned `more` from a delivery (drainer only).
  mutating func add(_ more: Subscribers.Demand) {
    if !isTerminated { demand += more }
  }

  /// The drainer's next step.
  mutating func nextStep() -> Step {
    if isTerminated {
      isDraining = false
      return .idle
    }
    if demand > .none, let combination = pending.popFirst() {
      if demand != .unlimited { demand -= 1 }
      return .deliver(combination)
    }
    if isFinishing, pending.isEmpty {
      terminate()
      isDraining = false
      return .finish
    }
    isDraining = false
    return .idle
  }

  /// The subscription was cancelled: forget everything.
  mutating func cancel() {
    terminate()
  }

  private mutating func terminate() {
    isTerminated = true
    pending.removeAll()
    latest = []
    buffers = []
  }

  private mutating func enqueue(_ combination: [Element]) {
    // A property conflates for a subscriber with no demand: it gets the latest when it asks.
    if strategy == .latest, demand == .none { pending.removeAll() }
    pending.append(combination)
  }

  private mutating func startDrainingIfNeeded() -> Bool {
    guard !isDraining else { return false }
    let canDeliver = demand > .none && !pending.isEmpty
    let canFinish = isFinishing && pending.isEmpty
    guard canDeliver || canFinish else { return false }
    isDraining = true
    return true
  }
}

/// One subscriber's subscription to a ``PropertyCombination``: it owns the lock and the
/// sources' subscriptions, runs ``PropertyCombinationState`` transitions under the lock, and
/// calls the downstream and the sources after unlocking.
final class PropertyCombinationSubscription<Element, Downstream: Subscriber>: Subscription,
  CustomStringConvertible, @unchecked Sendable
where Downstream.Input == [Element], Downstream.Failure == Never {
  // @unchecked Sendable: `state`, `upstreams` and `downstream` are guarded by `lock`; the
  // downstream is only called by the drainer, one thread at a time; `strategy` is a constant.
  private let lock = Lock()
  private let strategy: PropertyCombinationStrategy
  private var state: PropertyCombinationState<Element>
  private var upstreams: [(any Subscription)?]
  private var downstream: Downstream?

  init(strategy: PropertyCombinationStrategy, sourceCount: Int, downstream: Downstream) {
    self.strategy = strategy
    state = PropertyCombinationState(strategy: strategy, sourceCount: sourceCount)
    upstreams = Array(repeating: nil, count: sourceCount)
    self.downstream = downstream
  }

  var description: String {
    strategy == .latest ? "CombineLatest" : "Zip"
  }

  /// Subscribes to every source in order (each delivers its current value at once).
  func subscribe(to sources: [AnyPublisher<Element, Never>]) {
    for (index, source) in sources.enumerated() {
      if lock.withLock({ state.isTerminated }) { return }
      source.receive(subscriber: Side(index: index, parent: self))
    }
  }

  // MARK: From the sources

  fileprivate func receive(subscription: any Subscription, from index: Int) {
    let accepted = lock.withLock { () -> Bool in
      guard !state.isTerminated, upstreams[index] == nil else { return false }
      upstreams[index] = subscription
      return true
    }
    if accepted {
      subscription.request(.unlimited)
    } else {
      subscription.cancel()
    }
  }

  fileprivate func receive(_ value: Element, from index: Int) {
    perform { $0.receive(value, from: index) }
  }

  fileprivate func receiveCompletion(from index: Int) {
    perform { state in
      upstreams[index] = nil
      return state.receiveCompletion(from: index)
    }
  }

  /// Runs a transition under the lock, then carries out its effects.
  private func perform(
    _ transition: (inout PropertyCombinationState<Element>) ->
      PropertyCombinationState<Element>
      .Effects
  ) {
    let (drain, sources) = lock.withLock { () -> (Bool, [any Subscription]) in
      let effects = transition(&state)
      guard effects.cancelSources else { return (effects.drain, []) }
      defer { upstreams = upstreams.map { _ in nil } }
      return (effects.drain, upstreams.compactMap { $0 })
    }
    for subscription in sources { subscription.cancel() }
    if drain { self.drain() }
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    if lock.withLock({ state.request(demand) }) { drain() }
  }

  func cancel() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      guard !state.isTerminated else { return [] }
      state.cancel()
      downstream = nil
      defer { upstreams = upstreams.map { _ in nil } }
      return upstreams.compactMap { $0 }
    }
    for subscription in subscriptions { subscription.cancel() }
  }

  // MARK: Delivery

  /// Delivers pending combinations (and the completion) while there is demand; only the thread
  /// that became the drainer calls it.
  private func drain() {
    while true {
      let (step, downstream) = lock.withLock {
        () -> (PropertyCombinationState<Element>.Step, Downstream?) in
        let step = state.nextStep()
        let downstream = self.downstream
        if case .finish = step {
          self.downstream = nil
          upstreams = upstreams.map { _ in nil }
        }
        return (step, downstream)
      }
      switch step {
      case .deliver(let combination):
        let more = downstream?.receive(combination) ?? .none
        if more > .none { lock.withLock { state.add(more) } }
      case .finish:
        downstream?.receive(completion: .finished)
        return
      case .idle:
        return
      }
    }
  }

  /// The subscriber attached to one source: it tells the subscription which source spoke.
  private struct Side: Subscriber {
    typealias Input = Element
    typealias Failure = Never

    let index: Int
    let parent: PropertyCombinationSubscription
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
      parent.receive(subscription: subscription, from: index)
    }

    func receive(_ input: Element) -> Subscribers.Demand {
      parent.receive(input, from: index)
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
      parent.receiveCompletion(from: index)
    }
  }
}

/// A first-in first-out queue: an array with a moving head, compacted as it empties, so that
/// appends and pops are amortized O(1).
struct FIFO<Element> {
  private var storage: [Element?] = []
  private var head = 0

  var isEmpty: Bool { head == storage.count }

  mutating func append(_ element: Element) {
    storage.append(element)
  }

  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head].take()
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}
