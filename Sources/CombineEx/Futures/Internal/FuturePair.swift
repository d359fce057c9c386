import CombineExCore

/// Runs two futures side by side and publishes both values as a pair: the one combination
/// that `zip` and `combineLatest` of futures (of two, three, four or an array) are built from.
///
/// Per subscription: both futures are subscribed, the first before the second, as soon as the
/// subscriber has its subscription, and each is asked for its one value. When both values are
/// in and the subscriber has demand, the pair is delivered, then `.finished`. The first failure
/// is delivered at once, and cancels the other future. Cancelling cancels both.
struct FuturePair<First, Second, Failure: Error>: Publisher {
  typealias Output = (First, Second)

  let first: AnyPublisher<First, Failure>
  let second: AnyPublisher<Second, Failure>

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let subscription = FuturePairSubscription<First, Second, S>(downstream: subscriber)
    subscriber.receive(subscription: subscription)
    subscription.start(first: first, second: second)
  }
}

/// Which of the two futures of a ``FuturePair`` an event comes from.
private enum PairSide {
  case first
  case second
}

/// The subscription of ``FuturePair``.
private final class FuturePairSubscription<First, Second, Downstream: Subscriber>:
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == (First, Second) {
  // @unchecked Sendable: every mutable property is guarded by `lock`.
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var firstValue: First?
  private var secondValue: Second?
  private var firstSubscription: (any Subscription)?
  private var secondSubscription: (any Subscription)?
  private var hasDemand = false
  /// Released when the pair is delivered, fails or is cancelled.
  private var downstream: Downstream?
  /// Delivered, failed or cancelled: nothing more happens.
  private var isDone = false
  /// Whether the subscriber cancelled, even after the pair was taken for delivery: a cancel
  /// from inside `receive(_:)` keeps `.finished` from being sent.
  private var cancelled = false

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "DeferredFuture.zip" }

  /// Subscribes both futures, unless the subscription ended meanwhile (cancelled, or the first
  /// future failed at once: then the second is never started).
  func start(first: AnyPublisher<First, Failure>, second: AnyPublisher<Second, Failure>) {
    guard !lock.withLock({ isDone }) else { return }
    first.receive(
      subscriber: PairSideSubscriber(
        onSubscription: { [self] in subscribed(.first, $0) },
        onValue: { [self] in received(first: $0) },
        onCompletion: { [self] in completed(.first, $0) }))
    guard !lock.withLock({ isDone }) else { return }
    second.receive(
      subscriber: PairSideSubscriber(
        onSubscription: { [self] in subscribed(.second, $0) },
        onValue: { [self] in received(second: $0) },
        onCompletion: { [self] in completed(.second, $0) }))
  }

  // MARK: Events from the two futures

  private func subscribed(_ side: PairSide, _ subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard !isDone else { return false }
      switch side {
      case .first: firstSubscription = subscription
      case .second: secondSubscription = subscription
      }
      return true
    }
    if accepted {
      subscription.request(.max(1))
    } else {
      subscription.cancel()
    }
  }

  private func received(first value: First) {
    let delivery = lock.withLock { () -> (Downstream, (First, Second))? in
      guard !isDone, firstValue == nil else { return nil }
      firstValue = value
      return takeDeliveryIfReady()
    }
    deliver(delivery)
  }

  private func received(second value: Second) {
    let delivery = lock.withLock { () -> (Downstream, (First, Second))? in
      guard !isDone, secondValue == nil else { return nil }
      secondValue = value
      return takeDeliveryIfReady()
    }
    deliver(delivery)
  }

  private func completed(_ side: PairSide, _ completion: Subscribers.Completion<Failure>) {
    let ending = lock.withLock { () -> (Downstream?, (any Subscription)?)? in
      guard !isDone else { return nil }
      let hasValue: Bool
      switch side {
      case .first:
        firstSubscription = nil
        hasValue = firstValue != nil
      case .second:
        secondSubscription = nil
        hasValue = secondValue != nil
      }
      // A future that finishes after its value is simply done; the pair waits for the other.
      if case .finished = completion, hasValue { return nil }
      // A failure, or a finish without a value (which no DeferredFuture does): the pair can
      // no longer be made.
      let other = side == .first ? secondSubscription : firstSubscription
      let downstream = self.downstream
      end()
      return (downstream, other)
    }
    guard let (downstream, other) = ending else { return }
    other?.cancel()
    downstream?.receive(completion: completion)
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    let delivery = lock.withLock { () -> (Downstream, (First, Second))? in
      guard !isDone else { return nil }
      hasDemand = true
      return takeDeliveryIfReady()
    }
    deliver(delivery)
  }

  func cancel() {
    let (downstream, first, second) = lock.withLock {
      () -> (Downstream?, (any Subscription)?, (any Subscription)?) in
      cancelled = true
      guard !isDone else { return (nil, nil, nil) }
      defer { end() }
      return (self.downstream, firstSubscription, secondSubscription)
    }
    _ = downstream  // Released outside the lock.
    first?.cancel()
    second?.cancel()
  }

  // MARK: Under the lock

  /// If both values and demand are there, ends the subscription and returns the delivery.
  private func takeDeliveryIfReady() -> (Downstream, (First, Second))? {
    guard hasDemand, let firstValue, let secondValue, let downstream else { return nil }
    // Both futures are finishing on their own: they are let go, not cancelled.
    end()
    return (downstream, (firstValue, secondValue))
  }

  /// Marks the subscription done and lets go of everything it holds.
  private func end() {
    isDone = true
    firstValue = nil
    secondValue = nil
    firstSubscription = nil
    secondSubscription = nil
    downstream = nil
  }

  private func deliver(_ delivery: (Downstream, (First, Second))?) {
    guard let (downstream, pair) = delivery else { return }
    _ = downstream.receive(pair)
    if lock.withLock({ cancelled }) { return }
    downstream.receive(completion: .finished)
  }
}

/// Subscribes to one side of a ``FuturePair`` and reports its events to the pair.
private final class PairSideSubscriber<Value, Failure: Error>: Subscriber, CustomStringConvertible {
  private let onSubscription: (any Subscription) -> Void
  private let onValue: (Value) -> Void
  private let onCompletion: (Subscribers.Completion<Failure>) -> Void

  init(
    onSubscription: @escaping (any Subscription) -> Void, onValue: @escaping (Value) -> Void,
    onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
  ) {
    self.onSubscription = onSubscription
    self.onValue = onValue
    self.onCompletion = onCompletion
  }

  var description: String { "DeferredFuture.zip" }

  func receive(subscription: any Subscription) { onSubscription(subscription) }

  func receive(_ input: Value) -> Subscribers.Demand {
    onValue(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) { onCompletion(completion) }
}
