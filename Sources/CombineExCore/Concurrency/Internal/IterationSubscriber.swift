/// The subscriber behind the iterators of ``AsyncPublisher`` and ``AsyncThrowingPublisher``:
/// each `next()` call requests one value from the upstream and waits for it.
///
/// As in Combine, several tasks may wait on one iterator at once: each waiting call requested
/// one value, and values go to the calls in the order they were made. A completion goes to the
/// first waiting call (a failure is thrown there) and every other waiting call gets `nil`; a
/// completion that arrives while nobody waits is kept for the next call. Cancelling (the task
/// awaiting any of the calls is cancelled, or the iterator is dropped) cancels the upstream
/// and gives `nil` to every waiting and later call.
final class IterationSubscriber<Input, Failure: Error>: Subscriber, Cancellable,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `machine` is guarded by `lock`; values reach the awaiting tasks
  // through continuations, as ``Handoff``s.
  typealias Continuation = CheckedContinuation<Handoff<Result<Input?, Failure>>, Never>
  typealias Machine = IterationState<Input, Failure, Continuation>

  private let lock = Lock()
  private var machine = Machine()

  var description: String { "AsyncPublisher" }

  /// Requests one value and waits for it: `.success(value)`, `.success(nil)` once the upstream
  /// finished or the iteration was cancelled, or `.failure` once, when the upstream failed.
  func next(isolation: isolated (any Actor)? = #isolation) async -> Result<Input?, Failure> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: Continuation) in
        perform(lock.withLock { machine.next(continuation) })
      }.value
    } onCancel: {
      cancel()
    }
  }

  // MARK: Subscriber

  func receive(subscription: any Subscription) {
    perform(lock.withLock { machine.receive(subscription: subscription) })
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let effects = lock.withLock { machine.receive(input) }
    guard let effects else {
      apiViolation(
        "an AsyncPublisher iterator received a value that no next() call requested. The "
          + "upstream publisher sends more values than its subscriber asked for.")
    }
    perform(effects)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    perform(lock.withLock { machine.receive(completion: completion) })
  }

  // MARK: Cancellable

  /// Cancels the upstream and ends the iteration: every waiting `next()` returns `nil`.
  func cancel() {
    perform(lock.withLock { machine.cancel() })
  }

  /// Does, outside the lock, what a transition returned: the subscription's call first (as in
  /// Combine), then the waiting calls, in the order they were made.
  private func perform(_ effects: Machine.Effects) {
    if let request = effects.request { request.subscription.request(request.demand) }
    effects.cancel?.cancel()
    if let (continuation, result) = effects.resume {
      continuation.resume(returning: Handoff(result))
    }
    for continuation in effects.resumeWithNil {
      continuation.resume(returning: Handoff(.success(nil)))
    }
  }
}

/// The state machine of ``IterationSubscriber``: where the iteration is and which calls wait.
///
/// Its transitions only change the state and return what the subscriber must do after
/// releasing its lock (rule 6).
struct IterationState<Input, Failure: Error, Waiter> {
  /// What the owner does once its lock is released.
  struct Effects {
    /// A demand to request from the upstream.
    var request: (subscription: any Subscription, demand: Subscribers.Demand)?
    /// A subscription to cancel.
    var cancel: (any Subscription)?
    /// One waiting call and what it gets.
    var resume: (Waiter, Result<Input?, Failure>)?
    /// Waiting calls that get `nil`.
    var resumeWithNil: [Waiter] = []
  }

  private enum Phase {
    /// No subscription yet; `demand` counts the `next()` calls made meanwhile.
    case awaitingSubscription(demand: Subscribers.Demand)
    case subscribed(any Subscription)
    /// Completed or cancelled; `failure` is a failure that no call has thrown yet.
    case ended(failure: Failure?)
  }

  private var phase = Phase.awaitingSubscription(demand: .none)
  /// The calls waiting for a value, oldest first.
  private var waiting: [Waiter] = []

  /// A `next()` call: it waits and asks for one value, or ends at once after the end.
  mutating func next(_ waiter: Waiter) -> Effects {
    switch phase {
    case .awaitingSubscription(let demand):
      waiting.append(waiter)
      phase = .awaitingSubscription(demand: demand + 1)
      return Effects()
    case .subscribed(let subscription):
      waiting.append(waiter)
      return Effects(request: (subscription, .max(1)))
    case .ended(let failure?):
      phase = .ended(failure: nil)
      return Effects(resume: (waiter, .failure(failure)))
    case .ended(failure: nil):
      return Effects(resume: (waiter, .success(nil)))
    }
  }

  mutating func receive(subscription: any Subscription) -> Effects {
    guard case .awaitingSubscription(let demand) = phase else {
      return Effects(cancel: subscription)
    }
    phase = .subscribed(subscription)
    return demand == .none ? Effects() : Effects(request: (subscription, demand))
  }

  /// A value: it goes to the oldest waiting call. Returns `nil` when no call waits for it
  /// although the subscription is there (the upstream ignored the demand: Combine stops the
  /// program). A value before the subscription gives `nil` to every waiting call, as in
  /// Combine, and one after the end is ignored.
  mutating func receive(_ input: Input) -> Effects? {
    switch phase {
    case .subscribed:
      guard !waiting.isEmpty else { return nil }
      return Effects(resume: (waiting.removeFirst(), .success(input)))
    case .awaitingSubscription, .ended:
      return Effects(resumeWithNil: takeWaiting())
    }
  }

  /// The completion: the oldest waiting call gets it, the others `nil`; kept for the next call
  /// if nobody waits.
  mutating func receive(completion: Subscribers.Completion<Failure>) -> Effects {
    if case .ended = phase { return Effects(resumeWithNil: takeWaiting()) }
    let failure: Failure? =
      switch completion {
      case .finished: nil
      case .failure(let error): error
      }
    guard !waiting.isEmpty else {
      phase = .ended(failure: failure)
      return Effects()
    }
    phase = .ended(failure: nil)
    let first = waiting.removeFirst()
    let result: Result<Input?, Failure> = failure.map { .failure($0) } ?? .success(nil)
    return Effects(resume: (first, result), resumeWithNil: takeWaiting())
  }

  /// Ends the iteration: the subscription, if any, is cancelled, and every waiting call gets
  /// `nil`.
  mutating func cancel() -> Effects {
    var effects = Effects(resumeWithNil: takeWaiting())
    if case .subscribed(let subscription) = phase { effects.cancel = subscription }
    phase = .ended(failure: nil)
    return effects
  }

  private mutating func takeWaiting() -> [Waiter] {
    defer { waiting = [] }
    return waiting
  }
}

/// Owned by an async iterator: cancels the iteration when the last copy of the iterator goes
/// away, for example when a `for await` loop is left with `break`.
final class IterationLifetime<Input, Failure: Error>: Sendable {
  let subscriber: IterationSubscriber<Input, Failure>

  init<P: Publisher>(subscribingTo publisher: P) where P.Output == Input, P.Failure == Failure {
    subscriber = IterationSubscriber()
    publisher.subscribe(subscriber)
  }

  deinit {
    subscriber.cancel()
  }
}
