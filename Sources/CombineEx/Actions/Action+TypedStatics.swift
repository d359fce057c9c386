import CombineExCore

// The statics of Action+Statics again, typed by the action they are called on: written as
// `Action<Int, Int, MyError>.withThrowingTask { input throws(MyError) in ... }`, the closure's
// parameter and result types come from `Action<Int, Int, MyError>`, where the generic statics
// (whose types are their own) leave them to inference, which a body such as `input < 0` cannot
// settle (Subscribers.Demand also compares with an `Int`). Where both apply, these
// non-generic ones win; they make the same actions.

extension Action where Input == Void, Failure == Never {
  /// ``just(enabledIf:_:)``, typed by the action it is called on.
  ///
  /// ```swift
  /// let reset = Action<Void, Int, Never>.just(0)
  /// ```
  public static func just(
    enabledIf: Property<Bool> = Property(value: true), _ value: Output
  ) -> Action {
    makeImmediate(enabledIf: enabledIf) { _ in value }
  }
}

extension Action where Failure == Never {
  /// ``immediate(enabledIf:_:)``, typed by the action it is called on.
  ///
  /// ```swift
  /// let double = Action<Int, Int, Never>.immediate { $0 * 2 }
  /// ```
  public static func immediate(
    enabledIf: Property<Bool> = Property(value: true), _ block: @escaping (Input) -> Output
  ) -> Action {
    makeImmediate(enabledIf: enabledIf, block)
  }

  /// ``immediateOnMainActor(enabledIf:_:)``, typed by the action it is called on.
  ///
  /// ```swift
  /// let show = Action<String, Int, Never>.immediateOnMainActor { $0.count }
  /// ```
  public static func immediateOnMainActor(
    enabledIf: Property<Bool> = Property(value: true),
    _ block: @escaping @MainActor (Input) -> Output
  ) -> Action {
    makeOnMainActor(enabledIf: enabledIf, block)
  }

  /// ``withTask(enabledIf:_:)``, typed by the action it is called on.
  ///
  /// ```swift
  /// let lookUp = Action<Int, String, Never>.withTask { "#\($0)" }
  /// ```
  public static func withTask(
    enabledIf: Property<Bool> = Property(value: true),
    _ task: @escaping @Sendable (Input) async -> Output
  ) -> Action {
    makeTask(enabledIf: enabledIf, task)
  }
}

extension Action {
  /// ``immediateResult(enabledIf:_:)``, typed by the action it is called on.
  ///
  /// ```swift
  /// struct Negative: Error {}
  /// let check = Action<Int, Int, Negative>.immediateResult { $0 < 0 ? .failure(Negative()) : .success($0) }
  /// ```
  public static func immediateResult(
    enabledIf: Property<Bool> = Property(value: true),
    _ block: @escaping (Input) -> Result<Output, Failure>
  ) -> Action {
    makeResult(enabledIf: enabledIf, block)
  }

  /// ``withThrowingTask(enabledIf:_:)``, typed by the action it is called on.
  ///
  /// ```swift
  /// struct Negative: Error {}
  /// let double = Action<Int, Int, Negative>.withThrowingTask { input throws(Negative) in
  ///   if input < 0 { throw Negative() }
  ///   return input * 2
  /// }
  /// ```
  public static func withThrowingTask(
    enabledIf: Property<Bool> = Property(value: true),
    _ task: @escaping @Sendable (Input) async throws(Failure) -> Output
  ) -> Action {
    makeTask(enabledIf: enabledIf, task)
  }

  /// ``withThrowingTask(enabledIf:nonconformingErrorHandler:task:)``, typed by the action it is
  /// called on.
  ///
  /// ```swift
  /// enum SaveError: Error { case other(String) }
  /// let save = Action<String, Bool, SaveError>.withThrowingTask(
  ///   nonconformingErrorHandler: { .other("\($0)") }, task: { !$0.isEmpty })
  /// ```
  public static func withThrowingTask(
    enabledIf: Property<Bool> = Property(value: true),
    nonconformingErrorHandler: @escaping @Sendable (any Error) -> Failure,
    task: @escaping @Sendable (Input) async throws -> Output
  ) -> Action {
    makeTask(
      enabledIf: enabledIf, nonconformingErrorHandler: nonconformingErrorHandler, task)
  }
}
