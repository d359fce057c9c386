/// The subscriber behind the iterators of ``AsyncPublisher`` and ``AsyncThrowingPublisher``:
/// each `next()` call requests one value from the upstream and waits for it.
///
/// The subscriber is attached when the iterator is made. Cancelling it (the awaiting task is
/// cancelled, or the iterator is dropped) cancels the upstream and makes the waiting and every
/// later `next()` return `nil`. A completion that arrives while nobody waits is kept for the
/// next call; after it has been reported, `next()` returns `nil`.
final class IterationSubscriber<Input, Failure: Error>: Subscriber, Cancellable,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `state` is guarded by `lock`; values reach the awaiting task through
  // a continuation, as a ``Handoff``.
  typealias Continuation = CheckedContinuation<Handoff<Result<Input?, Failure>>, Never>

  /// Where the iteration is.
  private enum State {
    /// Waiting for the upstream's subscription; `waiting` is a `next()` call made meanwhile.
    case awaitingSubscription(waiting: Continuation?)
    /// Subscribed; `waiting` is the `next()` call that the one requested value goes to.
    case subscribed(any Subscription, waiting: Continuation?)
    /// The upstream completed while nobody waited: the next `next()` call reports it.
    case completed(Subscribers.Completion<Failure>)
    /// Cancelled, or the completion has been reported: `next()` returns `nil`.
    case finished
  }

  /// What to do once the lock is released.
  private enum Action {
    case none
    case request(any Subscription)
    case cancel(any Subscription)
    case resume(Continuation, Result<Input?, Failure>)
    case cancelAndResume((any Subscription)?, Continuation?)
  }

  private let lock = Lock()
  private var state = State.awaitingSubscription(waiting: nil)

  var description: String { "AsyncPublisher" }

  /// Requests one value and waits for it: `.success(value)`, `.success(nil)` once the upstream
  /// finished or the iteration was cancelled, or `.failure` once, when the upstream failed.
  func next(isolation: isolated (any Actor)? = #isolation) async -> Result<Input?, Failure> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: Continuation) in
        enqueue(continuation)
      }.value
    } onCancel: {
      cancel()
    }
  }

  private func enqueue(_ continuation: Continuation) {
    let action = lock.withLock { () -> Action in
      switch state {
      case .awaitingSubscription(waiting: nil):
        state = .awaitingSubscription(waiting: continuation)
        return .none
      case .subscribed(let subscription, waiting: nil):
        state = .subscribed(subscription, waiting: continuation)
        return .request(subscription)
      case .awaitingSubscription(waiting: .some), .subscribed(_, waiting: .some):
        apiViolation(
          "next() was called on an AsyncPublisher iterator while another call on it was "
            + "waiting. An iterator serves one task at a time.")
      case .completed(let completion):
        state = .finished
        switch completion {
        case .finished: return .resume(continuation, .success(nil))
        case .failure(let error): return .resume(continuation, .failure(error))
        }
      case .finished:
        return .resume(continuation, .success(nil))
      }
    }
    perform(action)
  }

  // MARK: Subscriber

  func receive(subscription: any Subscription) {
    let action = lock.withLock { () -> Action in
      guard case .awaitingSubscription(let waiting) = state else { return .cancel(subscription) }
      state = .subscribed(subscription, waiting: waiting)
      return waiting == nil ? .none : .request(subscription)
    }
    perform(action)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let action = lock.withLock { () -> Action in
      // A value nobody asked for breaks the demand rule; it is dropped.
      guard case .subscribed(let subscription, let waiting?) = state else { return .none }
      state = .subscribed(subscription, waiting: nil)
      return .resume(waiting, .success(input))
    }
    perform(action)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let action = lock.withLock { () -> Action in
      let waiting: Continuation?
      switch state {
      case .awaitingSubscription(let continuation), .subscribed(_, let continuation):
        waiting = continuation
      case .completed, .finished:
        return .none
      }
      guard let waiting else {
        state = .completed(completion)
        return .none
      }
      state = .finished
      switch completion {
      case .finished: return .resume(waiting, .success(nil))
      case .failure(let error): return .resume(waiting, .failure(error))
      }
    }
    perform(action)
  }

  // MARK: Cancellable

  /// Cancels the upstream and ends the iteration: a waiting `next()` returns `nil`.
  func cancel() {
    let action = lock.withLock { () -> Action in
      switch state {
      case .awaitingSubscription(let waiting):
        state = .finished
        return .cancelAndResume(nil, waiting)
      case .subscribed(let subscription, let waiting):
        state = .finished
        return .cancelAndResume(subscription, waiting)
      case .completed:
        state = .finished
        return .none
      case .finished:
        return .none
      }
    }
    perform(action)
  }

  private func perform(_ action: Action) {
    switch action {
    case .none:
      break
    case .request(let subscription):
      subscription.request(.max(1))
    case .cancel(let subscription):
      subscription.cancel()
    case .resume(let continuation, let result):
      continuation.resume(returning: Handoff(result))
    case .cancelAndResume(let subscription, let continuation):
      subscription?.cancel()
      continuation?.resume(returning: Handoff(.success(nil)))
    }
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
