import CombineExCore

extension Future {
  /// Creates a future that runs an asynchronous closure in a new task, at once, and publishes
  /// its result.
  ///
  /// Combine has no such initializer (CombineEx adds it). Like every ``Future``, this one is *eager*: the task
  /// starts in `init`, whether or not anyone subscribes, and runs once however many subscribe;
  /// every subscriber receives the same result. Its `Failure` is the closure's thrown error
  /// type: `Never` for a closure that cannot throw, `any Error` for one that throws:
  ///
  /// ```swift
  /// let answer = Future<Int, Never> { await Task.yield(); return 42 }
  /// let cancellable = answer.sink { print($0) }
  /// // Prints: 42 — once the task has run
  ///
  /// struct Offline: Error {}
  /// let download = Future<String, any Error> { throw Offline() }
  /// ```
  ///
  /// A closure that throws one concrete error type says so:
  /// `Future<String, Offline> { () throws(Offline) in ... }`.
  ///
  /// Cancelling a subscriber does **not** cancel the task: the future is shared by all of its
  /// subscribers and its work has already started, so one subscriber leaving must not take the
  /// result away from the others (or from later subscribers). To tie the work to a
  /// subscription, and cancel it with that subscription, use CombineEx's `DeferredFuture`.
  ///
  /// - Parameter work: The closure to run; `@Sendable` because it runs in its own task.
  public convenience init(_ work: @escaping @Sendable () async throws(Failure) -> Output) {
    self.init { promise in
      Task {
        do throws(Failure) {
          promise(.success(try await work()))
        } catch {
          promise(.failure(error))
        }
      }
    }
  }
}
