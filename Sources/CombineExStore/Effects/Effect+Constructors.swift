import CombineEx

extension Effect {
  /// An effect that publishes one value, then finishes.
  ///
  /// ```swift
  /// let cancellable = Effect<Int, Never>(value: 42).sink { print($0) }  // Prints: 42
  /// ```
  public init(value: Output) {
    self.init(Just(value).setFailureType(to: Failure.self))
  }

  /// An effect that fails at once with `error`.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = Effect<Int, Offline>(error: Offline()).sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: failure(Offline())
  /// ```
  public init(error: Failure) {
    self.init(Fail(error: error))
  }

  /// An effect that produces one value, or fails, through a promise: `attemptToFulfill` runs
  /// once per subscription (never at creation) and may call the promise later, from any
  /// thread.
  ///
  /// ```swift
  /// let effect = Effect<Int, Never>.future { promise in
  ///   DispatchQueue.global().async { promise(.success(42)) }
  /// }
  /// let cancellable = effect.sink { print($0) }
  /// // Prints: 42 — from the global queue
  /// ```
  public static func future(
    _ attemptToFulfill: @escaping (@escaping Future<Output, Failure>.Promise) -> Void
  ) -> Effect {
    Effect(Deferred { Future(attemptToFulfill) })
  }

  /// An effect that computes one result synchronously, once per subscription.
  ///
  /// ```swift
  /// let effect = Effect<Int, Never>.result { .success(6 * 7) }
  /// let cancellable = effect.sink { print($0) }  // Prints: 42
  /// ```
  public static func result(_ attemptToFulfill: @escaping () -> Result<Output, Failure>) -> Effect {
    Effect(Deferred { attemptToFulfill().publisher })
  }

  /// An effect that does some work, once per subscription, and publishes nothing: errors the
  /// work throws are ignored.
  ///
  /// ```swift
  /// let effect = Effect<Never, Never>.fireAndForget { print("logged") }
  /// let cancellable = effect.sink { _ in }  // Prints: logged
  /// ```
  public static func fireAndForget(_ work: @escaping () throws -> Void) -> Effect {
    Effect(
      Deferred { () -> Empty<Output, Failure> in
        try? work()
        return Empty(completeImmediately: true)
      })
  }

  /// An effect that runs asynchronous work in a task, once per subscription, and publishes
  /// nothing. It finishes when the work returns or throws (errors are ignored); cancelling
  /// cancels the task.
  ///
  /// ```swift
  /// let cancellable = Effect<Never, Never>.fireAndForget {
  ///   try await Task.sleep(nanoseconds: 1_000)
  ///   print("slept")
  /// }
  /// .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: slept, finished — from the task
  /// ```
  public static func fireAndForget(
    priority: TaskPriority? = nil, _ work: @escaping @Sendable () async throws -> Void
  ) -> Effect {
    .run { subscriber in
      let task = Task(priority: priority) {
        try? await work()
        subscriber.send(completion: .finished)
      }
      return AnyCancellable { task.cancel() }
    }
  }
}

extension Effect where Failure == any Error {
  /// An effect that runs throwing work once per subscription: it publishes the returned value,
  /// or fails with the thrown error.
  ///
  /// ```swift
  /// struct Missing: Error {}
  /// let found = Effect.catching { 42 }
  /// let missing = Effect<Int, any Error>.catching { throw Missing() }
  /// let cancellables = [
  ///   found.sink(receiveCompletion: { _ in }, receiveValue: { print($0) }),  // Prints: 42
  ///   missing.sink(receiveCompletion: { print($0) }, receiveValue: { _ in }),
  ///   // Prints: failure(Missing())
  /// ]
  /// ```
  public static func catching(_ work: @escaping () throws -> Output) -> Effect {
    .result { Result { try work() } }
  }
}
