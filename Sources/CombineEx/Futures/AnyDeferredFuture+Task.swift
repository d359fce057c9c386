import CombineExCore

// The `withTask` statics on the erased future, as the original CombineEx has them: the same
// futures as `DeferredFuture`'s, erased.

extension AnyDeferredFuture {
  /// `DeferredFuture/withTask(_:)`, erased: runs `task` in a new task per subscription,
  /// cancelled with it.
  ///
  /// ```swift
  /// let five = AnyDeferredFuture<Int, Never>.withTask { 5 }
  /// ```
  @_disfavoredOverload
  public static func withTask(
    _ task: @escaping @Sendable () async throws(Failure) -> Output
  ) -> AnyDeferredFuture<Output, Failure> {
    DeferredFuture.withTask(task).eraseToAnyDeferredFuture()
  }

  /// ``DeferredFuture/withTask(nonconformingErrorHandler:task:)``, erased.
  ///
  /// ```swift
  /// enum LoadError: Error { case other(String) }
  /// let load = AnyDeferredFuture<Int, LoadError>.withTask(
  ///   nonconformingErrorHandler: { .other("\($0)") }, task: { 1 })
  /// ```
  public static func withTask(
    nonconformingErrorHandler: @escaping @Sendable (any Error) -> Failure,
    task: @escaping @Sendable () async throws -> Output
  ) -> AnyDeferredFuture<Output, Failure> {
    DeferredFuture.withTask(nonconformingErrorHandler: nonconformingErrorHandler, task: task)
      .eraseToAnyDeferredFuture()
  }

  /// `DeferredFuture/withTaskOnMainActor(_:)`, erased: runs `task` on the main actor, in a
  /// new task per subscription, cancelled with it.
  ///
  /// ```swift
  /// let title = AnyDeferredFuture<String, Never>.withTaskOnMainActor { "Home" }
  /// ```
  @_disfavoredOverload
  public static func withTaskOnMainActor(
    _ task: @escaping @MainActor () async throws(Failure) -> Output
  ) -> AnyDeferredFuture<Output, Failure> {
    DeferredFuture.withTaskOnMainActor(task).eraseToAnyDeferredFuture()
  }

  /// ``DeferredFuture/withTaskOnMainActor(nonconformingErrorHandler:task:)``, erased.
  ///
  /// ```swift
  /// enum SaveError: Error { case other(String) }
  /// let save = AnyDeferredFuture<Bool, SaveError>.withTaskOnMainActor(
  ///   nonconformingErrorHandler: { .other("\($0)") }, task: { true })
  /// ```
  public static func withTaskOnMainActor(
    nonconformingErrorHandler: @escaping @Sendable (any Error) -> Failure,
    task: @escaping @MainActor () async throws -> Output
  ) -> AnyDeferredFuture<Output, Failure> {
    DeferredFuture.withTaskOnMainActor(
      nonconformingErrorHandler: nonconformingErrorHandler, task: task
    ).eraseToAnyDeferredFuture()
  }
}
