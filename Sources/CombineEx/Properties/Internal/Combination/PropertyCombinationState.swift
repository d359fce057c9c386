import CombineExCore

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
  private var buffers: [ValueQueue<Element>]

  /// Which sources finished.
  private var finished: [Bool]

  /// How many sources hold nothing to combine: no value yet (`.latest`) or an empty buffer
  /// (`.zip`). A combination is made when it reaches zero.
  private var waitingCount: Int

  /// Combinations made and not yet delivered, oldest first.
  private var pending = ValueQueue<[Element]>()

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
    buffers =
      strategy == .zip ? Array(repeating: ValueQueue(), count: sourceCount) : []
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
