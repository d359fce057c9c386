import CombineExCore

// The `withTask` forms for a `CompositeError` failure: the task may throw anything, and what it
// throws is mapped through the failure's error map (`Failure.wrappingAllCases`). As with the
// other `withTask` forms, the task is cancelled when the subscriber cancels.

extension DeferredFuture where Failure: CompositeError {
  /// A future that runs `task` in a new task for each subscription; whatever it throws fails
  /// the future, mapped by `Failure.wrappingAllCases(_:)` (an unmapped error becomes
  /// `.unexpected`).
  ///
  /// ```swift
  /// struct Timeout: Error {}
  /// enum LoadError: CompositeError {
  ///   case timeout(Timeout)
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<LoadError>().mapping(Timeout.self) { .timeout($0) }
  /// }
  /// let load = DeferredFuture<Int, LoadError>.withTask { throw Timeout() }
  /// let cancellable = load.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(LoadError.timeout(Timeout())) — once the task has run
  /// ```
  ///
  /// It wins over the typed form where both apply (the typed form is disfavored), and maps a
  /// `Failure` thrown as it is to itself.
  public static func withTask(
    _ task: @escaping @Sendable () async throws -> Output
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture { () async throws(Failure) -> Output in
      do {
        return try await task()
      } catch {
        throw Failure.wrappingAllCases(error)
      }
    }
  }

  /// The `CompositeError` form of `withTask(_:)` on the main actor: runs `task` there, in a new
  /// task for each subscription, and maps what it throws with `Failure.wrappingAllCases(_:)`.
  ///
  /// ```swift
  /// enum UIError: CompositeError {
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<UIError>()
  /// }
  /// let title = DeferredFuture<String, UIError>.withTaskOnMainActor { "Home" }
  /// ```
  public static func withTaskOnMainActor(
    _ task: @escaping @MainActor () async throws -> Output
  ) -> DeferredFuture<Output, Failure> {
    mainActorTaskWork { @MainActor () async throws(Failure) -> Output in
      do {
        return try await task()
      } catch {
        throw Failure.wrappingAllCases(error)
      }
    }
  }
}

extension AnyDeferredFuture where Failure: CompositeError {
  /// `DeferredFuture.withTask(_:)` for a `CompositeError` failure, erased.
  ///
  /// ```swift
  /// enum LoadError: CompositeError {
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<LoadError>()
  /// }
  /// let load = AnyDeferredFuture<Int, LoadError>.withTask { 1 }
  /// ```
  public static func withTask(
    _ task: @escaping @Sendable () async throws -> Output
  ) -> AnyDeferredFuture<Output, Failure> {
    DeferredFuture.withTask(task).eraseToAnyDeferredFuture()
  }

  /// `DeferredFuture.withTaskOnMainActor(_:)` for a `CompositeError` failure, erased.
  ///
  /// ```swift
  /// enum UIError: CompositeError {
  ///   case unexpected(any Error)
  ///   static let errorMap = CompositeErrorMap<UIError>()
  /// }
  /// let title = AnyDeferredFuture<String, UIError>.withTaskOnMainActor { "Home" }
  /// ```
  public static func withTaskOnMainActor(
    _ task: @escaping @MainActor () async throws -> Output
  ) -> AnyDeferredFuture<Output, Failure> {
    DeferredFuture.withTaskOnMainActor(task).eraseToAnyDeferredFuture()
  }
}
