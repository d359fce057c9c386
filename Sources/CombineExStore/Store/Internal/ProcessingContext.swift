/// What a store is doing on the current thread: the source of the action it processes, and its
/// cancellation table.
///
/// A thread-local value: code running synchronously on the thread reads the value bound by the
/// innermost ``bind(_:_:)``. The store binds it only around code it runs synchronously for
/// itself: while it creates its middlewares (`source` is `nil` then), and while it processes
/// each action. Code running on another thread, or later (in a task started meanwhile too),
/// never sees it; a store processing inside another store's processing (a dispatch to a second
/// store from a middleware) binds its own, which wins while it runs.
///
/// A ``ThreadLocalSlot`` rather than a `@TaskLocal`: outside a task, binding a task-local value
/// allocated twice (the thread's fallback storage and the binding) at every action.
struct ProcessingContext: Sendable {
  /// The source of the action being processed; `nil` while the store creates its middlewares.
  let source: ActionSource?

  /// The cancellation table of the store (see ``Effect``, "Cancellation").
  let registry: CancellationRegistry

  /// The store's context on this thread, if a store is running code for itself.
  static var current: ProcessingContext? {
    processingContextSlot.value(as: ProcessingContext.self)
  }

  /// Runs `body` with `context` bound on this thread, then restores the binding it found.
  static func bind<Result>(_ context: ProcessingContext, _ body: () -> Result) -> Result {
    processingContextSlot.bind(context, body)
  }
}

/// Where ``ProcessingContext/current`` is bound.
private let processingContextSlot = ThreadLocalSlot()
