extension Action {
  /// Creates an action whose runs are cold futures: one value (or a failure) per run.
  ///
  /// ```swift
  /// let save = Action<String, Bool, Never> { text in
  ///   DeferredFuture { promise in promise(.success(!text.isEmpty)) }
  /// }
  /// ```
  ///
  /// Otherwise the same as ``init(enabledIf:execute:)``. (Disfavored so that a closure such as
  /// `{ _ in .just(x) }`, valid for both, picks the publisher form.)
  @_disfavoredOverload
  @inlinable
  public convenience init(
    enabledIf: Property<Bool> = Property(value: true),
    execute: @escaping (Input) -> DeferredFuture<Output, Failure>
  ) {
    self.init(enabledIf: enabledIf, specializedForm: .executeDeferredFuture) { input in
      execute(input).eraseToAnyDeferredPublisher()
    }
  }
}
