/// What a store is doing on the current thread: the source of the action it processes, and its
/// cancellation table.
///
/// A task-local value, which also works outside tasks: synchronous code reads the value set by
/// the innermost `withValue` on its thread, and a task created inside inherits it. The store
/// binds it only around code it runs synchronously for itself: while it creates its middlewares
/// (`source` is `nil` then), and while it processes each action. Code running on another thread,
/// or later, never sees it; a store processing inside another store's processing (a dispatch to
/// a second store from a middleware) binds its own, which wins while it runs.
struct ProcessingContext: Sendable {
  /// The store's context on this thread, if a store is running code for itself.
  @TaskLocal static var current: ProcessingContext?

  /// The source of the action being processed; `nil` while the store creates its middlewares.
  let source: ActionSource?

  /// The cancellation table of the store (see ``Effect``, "Cancellation").
  let registry: CancellationRegistry
}
