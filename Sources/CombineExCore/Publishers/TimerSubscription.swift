import Foundation

/// The subscription a `Timer.TimerPublisher` subscriber receives, which is also the subscriber
/// the publisher attaches to its subject for it: it relays the subject's subscription and ticks.
/// As Combine's, it has no description, mirror or playground value of its own (the subject's
/// subscription, which it keeps from the subscriber, has them).
final class TimerSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  @unchecked Sendable
where Downstream.Input == Date, Downstream.Failure == Never {
  // @unchecked Sendable: `state` is guarded by `lock`.
  typealias Input = Date
  typealias Failure = Never

  private enum State {
    /// Attached to the subject, which has not sent its subscription yet.
    case awaiting(Downstream)
    /// The downstream has this subscription; requests go to the subject's.
    case subscribed(Downstream, any Subscription)
    /// Cancelled or completed: everything is released.
    case ended
  }

  private let lock = Lock()
  private var state: State

  init(downstream: Downstream) {
    state = .awaiting(downstream)
  }

  // MARK: Subscriber (the subject's side)

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaiting(let downstream) = state else { return nil }
      state = .subscribed(downstream, subscription)
      return downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Date) -> Subscribers.Demand {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .subscribed(let downstream, _) = state else { return nil }
      return downstream
    }
    return downstream?.receive(input) ?? .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .subscribed(let downstream, _) = state else { return nil }
      state = .ended
      return downstream
    }
    downstream?.receive(completion: completion)
  }

  // MARK: Subscription (the downstream's side)

  func request(_ demand: Subscribers.Demand) {
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(_, let subscription) = state else { return nil }
      return subscription
    }
    subscription?.request(demand)
  }

  func cancel() {
    let taken = lock.withLock { () -> (Downstream?, (any Subscription)?) in
      defer { state = .ended }
      switch state {
      case .awaiting(let downstream): return (downstream, nil)
      case .subscribed(let downstream, let subscription): return (downstream, subscription)
      case .ended: return (nil, nil)
      }
    }
    taken.1?.cancel()
    // The downstream is released here, outside the lock.
    _ = taken
  }
}
