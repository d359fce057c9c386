import CombineExCore

/// The publisher behind ``Action/apply(_:)``: each subscription passes the action's gate and
/// becomes a run, or is refused with ``ActionError/disabled``.
struct ActionApplication<Input, Output, RunFailure: Error>: ColdPublisher {
  typealias Failure = ActionError<RunFailure>

  let action: Action<Input, Output, RunFailure>
  let input: Input

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    guard action.storage.start() else {
      action.disabledErrorsSubject.send(())
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: .failure(.disabled))
      return
    }
    let run = ActionRun(action: action, downstream: subscriber)
    action.execute(input).receive(subscriber: run)
  }
}

/// One run of an ``Action``: subscribed to the publisher the action's closure made, it reports
/// the run's events to the action, then forwards them to the applying subscriber, and ends the
/// run (clearing the gate) on completion or cancel.
///
/// It keeps the action alive until the run ends, and releases the action and the downstream
/// then.
final class ActionRun<Input, Output, RunFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Output, Downstream.Failure == ActionError<RunFailure> {
  // @unchecked Sendable: `status`, `action` and `downstream` are guarded by `lock`; calls to
  // the downstream are serial because the upstream's are.

  private enum Status {
    /// The run's publisher has not sent its subscription yet.
    case awaitingSubscription
    /// Running; requests go to this subscription.
    case subscribed(any Subscription)
    /// Completed or cancelled: everything else is ignored.
    case ended
  }

  private let lock = Lock()
  private var status = Status.awaitingSubscription
  private var action: Action<Input, Output, RunFailure>?
  private var downstream: Downstream?

  init(action: Action<Input, Output, RunFailure>, downstream: Downstream) {
    self.action = action
    self.downstream = downstream
  }

  var description: String { "Action run" }

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return self.downstream
    }
    guard let downstream else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Output) -> Subscribers.Demand {
    let targets = lock.withLock { () -> (Action<Input, Output, RunFailure>, Downstream)? in
      guard case .subscribed = status, let action, let downstream else { return nil }
      return (action, downstream)
    }
    guard let (action, downstream) = targets else { return .none }
    action.valuesSubject.send(input)
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<RunFailure>) {
    let ended = lock.withLock {
      () -> (Action<Input, Output, RunFailure>, Downstream, needsSubscription: Bool)? in
      let needsSubscription: Bool
      switch status {
      case .awaitingSubscription: needsSubscription = true
      case .subscribed: needsSubscription = false
      case .ended: return nil
      }
      status = .ended
      defer {
        action = nil
        self.downstream = nil
      }
      guard let action, let downstream else { return nil }
      return (action, downstream, needsSubscription)
    }
    guard let (action, downstream, needsSubscription) = ended else { return }
    // The action first: the gate is clear and its state published before the subscriber hears
    // of the end, so the subscriber may apply again from its completion handler.
    action.storage.end()
    switch completion {
    case .finished:
      action.completedSubject.send(())
    case .failure(let failure):
      action.errorsSubject.send(failure)
    }
    if needsSubscription { downstream.receive(subscription: Subscriptions.empty) }
    switch completion {
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let failure):
      downstream.receive(completion: .failure(.publisherFailure(failure)))
    }
  }

  func request(_ demand: Subscribers.Demand) {
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let subscription) = status else { return nil }
      return subscription
    }
    subscription?.request(demand)
  }

  func cancel() {
    let ended = lock.withLock {
      () -> (any Subscription, Action<Input, Output, RunFailure>?, Downstream?)? in
      guard case .subscribed(let subscription) = status else { return nil }
      status = .ended
      defer {
        action = nil
        downstream = nil
      }
      return (subscription, action, downstream)
    }
    // The downstream is released here, outside the lock.
    guard let (subscription, action, _) = ended else { return }
    subscription.cancel()
    action?.storage.end()
  }
}
