import CombineExCore

// The original CombineEx's `withTask` statics: a future whose work is an `async` closure, run
// in a new task per subscription. Unlike the original's, the task is cancelled when the
// subscriber cancels (as with `DeferredFuture { try await ... }`).

extension DeferredFuture {
  /// A future that runs `task` in a new task for each subscription and publishes what it
  /// returns, or fails with what it throws; the task is cancelled when the subscriber cancels.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// @Sendable func fetchName() async throws(Offline) -> String { "Ada" }
  /// let name = DeferredFuture<String, Offline>.withTask { () throws(Offline) in
  ///   try await fetchName()
  /// }
  /// let cancellable = name.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: Ada — once the task has run
  /// ```
  ///
  /// The same as `DeferredFuture { ... }` with an `async` closure. Disfavored, as in the
  /// original, so that the `CompositeError` form (which takes any thrown error) wins where both
  /// apply.
  @_disfavoredOverload
  public static func withTask(
    _ task: @escaping @Sendable () async throws(Failure) -> Output
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture(task)
  }

  /// A future that runs `task` in a new task for each subscription; an error of type `Failure`
  /// fails the future as it is, any other error is converted by `nonconformingErrorHandler`.
  ///
  /// ```swift
  /// enum LoadError: Error { case offline, other(String) }
  /// let load = DeferredFuture<Int, LoadError>.withTask(
  ///   nonconformingErrorHandler: { .other("\($0)") },
  ///   task: { try await Task.sleep(for: .milliseconds(1)); return 7 })
  /// ```
  ///
  /// The task is cancelled when the subscriber cancels.
  public static func withTask(
    nonconformingErrorHandler: @escaping @Sendable (any Error) -> Failure,
    task: @escaping @Sendable () async throws -> Output
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture { () async throws(Failure) -> Output in
      do {
        return try await task()
      } catch let failure as Failure {
        throw failure
      } catch {
        throw nonconformingErrorHandler(error)
      }
    }
  }

  /// A future that runs `task` on the main actor, in a new task for each subscription; the
  /// task is cancelled when the subscriber cancels.
  ///
  /// ```swift
  /// @MainActor final class Screen { var title = "Home" }
  /// let screen = Screen()
  /// let title = DeferredFuture<String, Never>.withTaskOnMainActor { screen.title }
  /// ```
  ///
  /// The result is delivered from the main actor. Disfavored, as in the original, so that the
  /// `CompositeError` form wins where both apply.
  @_disfavoredOverload
  public static func withTaskOnMainActor(
    _ task: @escaping @MainActor () async throws(Failure) -> Output
  ) -> DeferredFuture<Output, Failure> {
    mainActorTaskWork(task)
  }

  /// A future that runs `task` on the main actor, in a new task for each subscription; an
  /// error of type `Failure` fails the future as it is, any other error is converted by
  /// `nonconformingErrorHandler`.
  ///
  /// ```swift
  /// enum SaveError: Error { case other(String) }
  /// let save = DeferredFuture<Bool, SaveError>.withTaskOnMainActor(
  ///   nonconformingErrorHandler: { .other("\($0)") },
  ///   task: { true })
  /// ```
  public static func withTaskOnMainActor(
    nonconformingErrorHandler: @escaping @Sendable (any Error) -> Failure,
    task: @escaping @MainActor () async throws -> Output
  ) -> DeferredFuture<Output, Failure> {
    mainActorTaskWork { @MainActor () async throws(Failure) -> Output in
      do {
        return try await task()
      } catch let failure as Failure {
        throw failure
      } catch {
        throw nonconformingErrorHandler(error)
      }
    }
  }

  /// The work of the main-actor forms: a main-actor task per subscription, cancelled with it.
  static func mainActorTaskWork(
    _ task: @escaping @MainActor () async throws(Failure) -> Output
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture(
      publisher: FutureWork<Output, Failure> { promise in
        let running = Task { @MainActor in
          do throws(Failure) {
            promise(.success(try await task()))
          } catch {
            promise(.failure(error))
          }
        }
        return { running.cancel() }
      })
  }
}
