import CombineExCore

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
