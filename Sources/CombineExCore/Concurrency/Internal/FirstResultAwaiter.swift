extension Publisher {
  /// Subscribes and waits for the first value or the failure: the building block of the
  /// `value` accessors of ``Future`` and CombineEx's `DeferredFuture`.
  ///
  /// Returns `.success(value)` as soon as the first value arrives (the subscription then runs
  /// on until its completion, which for a future follows at once), `.failure` if the publisher
  /// fails first, and `nil` if it finishes without a value.
  ///
  /// If the awaiting task is cancelled and `cancellationFailure` is given, the subscription is
  /// cancelled and the call returns `.failure(cancellationFailure)`. Without it (when `Failure`
  /// cannot represent a cancellation, such as `Never`), task cancellation is ignored and the
  /// call waits for the publisher.
  package func firstResult(
    cancellationFailure: Failure?, isolation: isolated (any Actor)? = #isolation
  ) async -> Result<Output, Failure>? {
    let awaiter = FirstResultAwaiter<Output, Failure>(cancellationFailure: cancellationFailure)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        awaiter.start(continuation)
        subscribe(awaiter)
      }.value
    } onCancel: {
      awaiter.taskCancelled()
    }
  }
}

/// The subscriber of ``Publisher/firstResult(cancellationFailure:isolation:)``.
private final class FirstResultAwaiter<Input, Failure: Error>: Subscriber,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: the mutable properties are guarded by `lock`; the result reaches the
  // awaiting task as a ``Handoff``.
  typealias Outcome = Result<Input, Failure>?
  typealias Continuation = CheckedContinuation<Handoff<Outcome>, Never>

  private let lock = Lock()
  private let cancellationFailure: Failure?
  /// The awaiting task, until it is resumed.
  private var continuation: Continuation?
  private var subscription: (any Subscription)?
  /// Whether the outcome is decided (the first value, the completion, or the task's
  /// cancellation): nothing after that counts.
  private var isDecided = false
  /// An outcome decided before the awaiting task's continuation existed.
  private var undelivered: Handoff<Outcome>?

  init(cancellationFailure: Failure?) {
    self.cancellationFailure = cancellationFailure
  }

  var description: String { "value" }

  /// Called before subscribing, with the awaiting task's continuation.
  func start(_ continuation: Continuation) {
    let decided = lock.withLock { () -> Handoff<Outcome>? in
      guard isDecided else {
        self.continuation = continuation
        return nil
      }
      defer { undelivered = nil }
      return undelivered
    }
    // Decided already: the task was cancelled before its continuation existed.
    if let decided { continuation.resume(returning: decided) }
  }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard !isDecided, self.subscription == nil else { return false }
      self.subscription = subscription
      return true
    }
    if accepted {
      subscription.request(.max(1))
    } else {
      subscription.cancel()
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    decide(.success(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let subscription = lock.withLock { () -> (any Subscription)? in
      defer { self.subscription = nil }
      return self.subscription
    }
    _ = subscription  // Released outside the lock.
    switch completion {
    case .finished: decide(nil)
    case .failure(let error): decide(.failure(error))
    }
  }

  /// The awaiting task was cancelled: gives up on the publisher if the failure type can say so.
  func taskCancelled() {
    guard let cancellationFailure else { return }
    if decide(.failure(cancellationFailure)) {
      let subscription = lock.withLock { () -> (any Subscription)? in
        defer { self.subscription = nil }
        return self.subscription
      }
      subscription?.cancel()
    }
  }

  /// Records the outcome if none was recorded yet, and resumes the awaiting task with it.
  /// Returns whether this call decided.
  @discardableResult
  private func decide(_ result: Outcome) -> Bool {
    let (decided, continuation) = lock.withLock { () -> (Bool, Continuation?) in
      guard !isDecided else { return (false, nil) }
      isDecided = true
      guard let continuation = self.continuation else {
        undelivered = Handoff(result)
        return (true, nil)
      }
      self.continuation = nil
      return (true, continuation)
    }
    continuation?.resume(returning: Handoff(result))
    return decided
  }
}
