import CombineEx

extension Effect {
  /// The handle that the work of ``Effect/run(_:)`` sends values and a completion through.
  ///
  /// It may be used from any thread. Values wait until the effect's subscriber asks for them,
  /// and are delivered in order, one at a time; the completion follows the values sent before
  /// it. Everything sent after the completion, or after the subscriber cancelled, is ignored.
  public struct Subscriber: Sendable {
    private let deliverValue: @Sendable (Output) -> Void
    private let deliverCompletion: @Sendable (Subscribers.Completion<Failure>) -> Void

    /// A handle that sends to `inbox`, holding it weakly: once the subscription is gone, the
    /// handle does nothing.
    init(inbox: EffectRunInbox<Output, Failure>) {
      deliverValue = { [weak inbox] in inbox?.send($0) }
      deliverCompletion = { [weak inbox] in inbox?.send(completion: $0) }
    }

    /// Sends a value.
    public func send(_ value: Output) {
      deliverValue(value)
    }

    /// Sends the completion: `.finished`, or a failure.
    public func send(completion: Subscribers.Completion<Failure>) {
      deliverCompletion(completion)
    }
  }

  /// An effect whose work, run once per subscription, sends values and a completion through a
  /// subscriber handle, and returns what cancels it.
  ///
  /// ```swift
  /// let effect = Effect<String, Never>.run { subscriber in
  ///   subscriber.send("authorized")
  ///   subscriber.send(completion: .finished)
  ///   return AnyCancellable { print("cleaned up") }
  /// }
  /// let cancellable = effect.sink { print($0) }
  /// // Prints: authorized, cleaned up — the effect finished and released its cancellable
  /// ```
  ///
  /// The work runs after the subscriber has received its subscription; values it sends before
  /// the subscriber asks for them are kept until it does. The returned cancellable is cancelled
  /// when the subscriber cancels, and released when the effect completes (an `AnyCancellable`
  /// is then cancelled by its release).
  public static func run(_ work: @escaping (Subscriber) -> any Cancellable) -> Effect {
    Effect(EffectRunPublisher(work: work))
  }
}

extension Effect where Failure == Never {
  /// An effect that runs asynchronous work in a task, once per subscription; the work sends
  /// values with `send`, and the effect finishes when it returns.
  ///
  /// ```swift
  /// let cancellable = Effect<String, Never>.run { send in
  ///   send("loading")
  ///   await Task.yield()
  ///   send("loaded")
  /// }
  /// .sink { print($0) }
  /// // Prints: loading, loaded — from the task
  /// ```
  ///
  /// Cancelling the effect cancels the task. If the work throws, `handler` (when given) runs
  /// with the error and may still send values; a `CancellationError` thrown because the task
  /// was cancelled is ignored. Either way the effect then finishes: it cannot fail.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Output>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Output>) async -> Void)? = nil
  ) -> Effect {
    .run { subscriber in
      let task = Task(priority: priority) {
        let send = Send<Output> { subscriber.send($0) }
        do {
          try await operation(send)
        } catch is CancellationError where Task.isCancelled {
          // Cancelled: nothing is delivered any more.
        } catch {
          await handler?(error, send)
        }
        subscriber.send(completion: .finished)
      }
      return AnyCancellable { task.cancel() }
    }
  }

  /// An effect that runs asynchronous work in a task, once per subscription, publishes its
  /// result and finishes. Cancelling the effect cancels the task.
  ///
  /// ```swift
  /// let cancellable = Effect<Int, Never>.task { 6 * 7 }.sink { print($0) }
  /// // Prints: 42 — from the task
  /// ```
  public static func task(
    priority: TaskPriority? = nil, operation: @escaping @Sendable () async -> Output
  ) -> Effect {
    .run { subscriber in
      let task = Task(priority: priority) {
        let value = await operation()
        subscriber.send(value)
        subscriber.send(completion: .finished)
      }
      return AnyCancellable { task.cancel() }
    }
  }
}

extension Effect where Failure == any Error {
  /// An effect that runs throwing asynchronous work in a task, once per subscription; the work
  /// sends values with `send`. The effect finishes when the work returns, and fails with the
  /// error it throws. Cancelling the effect cancels the task.
  ///
  /// ```swift
  /// struct Unreachable: Error {}
  /// let cancellable = Effect<Int, any Error>.run { send in
  ///   send(1)
  ///   throw Unreachable()
  /// }
  /// .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, failure(Unreachable()) — from the task
  /// ```
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Output>) async throws -> Void
  ) -> Effect {
    .run { subscriber in
      let task = Task(priority: priority) {
        do {
          try await operation(Send { subscriber.send($0) })
          subscriber.send(completion: .finished)
        } catch {
          subscriber.send(completion: .failure(error))
        }
      }
      return AnyCancellable { task.cancel() }
    }
  }

  /// An effect that runs throwing asynchronous work in a task, once per subscription: it
  /// publishes the result and finishes, or fails with the thrown error. Cancelling the effect
  /// cancels the task.
  ///
  /// ```swift
  /// let cancellable = Effect<Int, any Error>.task { 6 * 7 }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 42, finished — from the task
  /// ```
  public static func task(
    priority: TaskPriority? = nil, operation: @escaping @Sendable () async throws -> Output
  ) -> Effect {
    .run { subscriber in
      let task = Task(priority: priority) {
        do {
          subscriber.send(try await operation())
          subscriber.send(completion: .finished)
        } catch {
          subscriber.send(completion: .failure(error))
        }
      }
      return AnyCancellable { task.cancel() }
    }
  }
}
