import CombineExCore
import Dispatch

// The original CombineEx's ready-made actions. Each is a static on `Action` that makes an
// action of its own types (as in the original, so `let a: Action<Void, Int, Never> = .just(1)`
// reads naturally), gated by `enabledIf` like any action.

extension Action {
  /// An action without input whose every run publishes `value`, then finishes.
  ///
  /// ```swift
  /// let reset: Action<Void, Int, Never> = .just(0)
  /// let cancellable = reset.apply().sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 0
  /// ```
  public static func just<O>(
    enabledIf: Property<Bool> = Property(value: true), _ value: O
  ) -> Action<Void, O, Never> {
    Action<Void, O, Never>.makeImmediate(enabledIf: enabledIf) { _ in value }
  }

  /// An action whose run calls `block` with the input, at subscription, and publishes what it
  /// returns.
  ///
  /// ```swift
  /// let double: Action<Int, Int, Never> = .immediate { $0 * 2 }
  /// let cancellable = double.apply(4).sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 8
  /// ```
  public static func immediate<I, O>(
    enabledIf: Property<Bool> = Property(value: true), _ block: @escaping (I) -> O
  ) -> Action<I, O, Never> {
    Action<I, O, Never>.makeImmediate(enabledIf: enabledIf, block)
  }

  /// An action whose run calls `block` with the input on the main actor, and publishes what it
  /// returns there.
  ///
  /// ```swift
  /// @MainActor final class Counter { var taps = 0 }
  /// let counter = Counter()
  /// let tap: Action<Void, Int, Never> = .immediateOnMainActor {
  ///   counter.taps += 1
  ///   return counter.taps
  /// }
  /// ```
  ///
  /// As in the original, the block always runs in a later turn of the main queue, even when
  /// the run starts on it; the run is in flight (and the action busy) until then.
  public static func immediateOnMainActor<I, O>(
    enabledIf: Property<Bool> = Property(value: true), _ block: @escaping @MainActor (I) -> O
  ) -> Action<I, O, Never> {
    Action<I, O, Never>.makeOnMainActor(enabledIf: enabledIf, block)
  }

  /// An action whose run calls `block` with the input and publishes its success, or fails with
  /// its failure.
  ///
  /// ```swift
  /// struct TooLong: Error {}
  /// let validate: Action<String, String, TooLong> = .immediateResult { text in
  ///   text.count <= 5 ? .success(text) : .failure(TooLong())
  /// }
  /// ```
  public static func immediateResult<I, O, F>(
    enabledIf: Property<Bool> = Property(value: true), _ block: @escaping (I) -> Result<O, F>
  ) -> Action<I, O, F> {
    Action<I, O, F>.makeResult(enabledIf: enabledIf, block)
  }

  /// An action whose run calls the async `task` with the input, in a new task, and publishes
  /// what it returns; cancelling the run cancels the task.
  ///
  /// ```swift
  /// @Sendable func search(_ query: String) async -> [String] { [query] }
  /// let searching: Action<String, [String], Never> = .withTask { await search($0) }
  /// ```
  public static func withTask<I, O>(
    enabledIf: Property<Bool> = Property(value: true),
    _ task: @escaping @Sendable (I) async -> O
  ) -> Action<I, O, Never> {
    Action<I, O, Never>.makeTask(enabledIf: enabledIf, task)
  }

  /// An action whose run calls the async, throwing `task` with the input, in a new task, and
  /// publishes what it returns or fails with what it throws; cancelling the run cancels the
  /// task.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// @Sendable func upload(_ text: String) async throws(Offline) -> Int { text.count }
  /// let uploading: Action<String, Int, Offline> = .withThrowingTask { (text) throws(Offline) in
  ///   try await upload(text)
  /// }
  /// ```
  public static func withThrowingTask<I, O, F>(
    enabledIf: Property<Bool> = Property(value: true),
    _ task: @escaping @Sendable (I) async throws(F) -> O
  ) -> Action<I, O, F> {
    Action<I, O, F>.makeTask(enabledIf: enabledIf, task)
  }

  /// An action whose run calls the async, throwing `task` with the input, in a new task; an
  /// error of type `F` fails the run as it is, any other error is converted by
  /// `nonconformingErrorHandler`.
  ///
  /// ```swift
  /// enum SaveError: Error { case other(String) }
  /// let saving: Action<String, Bool, SaveError> = .withThrowingTask(
  ///   nonconformingErrorHandler: { .other("\($0)") },
  ///   task: { text in !text.isEmpty })
  /// ```
  public static func withThrowingTask<I, O, F>(
    enabledIf: Property<Bool> = Property(value: true),
    nonconformingErrorHandler: @escaping @Sendable (any Error) -> F,
    task: @escaping @Sendable (I) async throws -> O
  ) -> Action<I, O, F> {
    Action<I, O, F>.makeTask(
      enabledIf: enabledIf, nonconformingErrorHandler: nonconformingErrorHandler, task)
  }

  // MARK: The actions the statics make (shared with the typed overloads)

  /// An action whose run publishes `block(input)`.
  static func makeImmediate(
    enabledIf: Property<Bool>, _ block: @escaping (Input) -> Output
  ) -> Action where Failure == Never {
    Action(enabledIf: enabledIf) { input in .just(block(input)) }
  }

  /// An action whose run publishes the success of `block(input)` or fails with its failure.
  static func makeResult(
    enabledIf: Property<Bool>, _ block: @escaping (Input) -> Result<Output, Failure>
  ) -> Action {
    Action(enabledIf: enabledIf) { input in
      switch block(input) {
      case .success(let output): return .just(output)
      case .failure(let error): return .fail(error)
      }
    }
  }

  /// An action whose run calls `block(input)` in a later turn of the main queue.
  static func makeOnMainActor(
    enabledIf: Property<Bool>, _ block: @escaping @MainActor (Input) -> Output
  ) -> Action where Failure == Never {
    Action(enabledIf: enabledIf) { input in
      DeferredFuture<Output, Never> { promise in
        let handoff = ActionInputHandoff(input: input)
        DispatchQueue.main.async {
          // The main queue runs on the main actor's executor.
          var output: Output?
          MainActor.assumeIsolated { output = block(handoff.input) }
          if let output { promise(.success(output)) }
        }
      }.eraseToAnyDeferredPublisher()
    }
  }

  /// An action whose run calls `task(input)` in a new task, cancelled with the run.
  static func makeTask(
    enabledIf: Property<Bool>, _ task: @escaping @Sendable (Input) async throws(Failure) -> Output
  ) -> Action {
    Action(enabledIf: enabledIf) { input in
      DeferredFuture<Output, Failure>(
        publisher: FutureWork<Output, Failure> { promise in
          let handoff = ActionInputHandoff(input: input)
          let running = Task {
            do throws(Failure) {
              promise(.success(try await task(handoff.input)))
            } catch {
              promise(.failure(error))
            }
          }
          return { running.cancel() }
        }
      ).eraseToAnyDeferredPublisher()
    }
  }

  /// ``makeTask(enabledIf:_:)`` for a task that may throw any error: a `Failure` fails the run
  /// as it is, any other error is converted by `nonconformingErrorHandler`.
  static func makeTask(
    enabledIf: Property<Bool>,
    nonconformingErrorHandler: @escaping @Sendable (any Error) -> Failure,
    _ task: @escaping @Sendable (Input) async throws -> Output
  ) -> Action {
    makeTask(enabledIf: enabledIf) { (input) async throws(Failure) -> Output in
      do {
        return try await task(input)
      } catch let failure as Failure {
        throw failure
      } catch {
        throw nonconformingErrorHandler(error)
      }
    }
  }
}
