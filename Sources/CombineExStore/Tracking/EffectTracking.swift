import Synchronization

/// Tells an observer when middlewares start long-running work for an action, and when that
/// work ends: the hook CombineExTesting's `TestStore` uses to fail a test that ends with effects
/// still running, naming the action that started them.
///
/// Two middlewares of this module report their work:
/// - ``EffectMiddleware``: each effect a handler returns, from its start until it finishes, is
///   cancelled (by ``EffectMiddleware/Context/toCancel(_:)``, or by a new effect with the same
///   token) or its store is freed;
/// - ``PublisherMiddleware``: the pipelines of each ``RetainedPublisherAction`` dispatch, while
///   the middleware retains them.
///
/// Work is reported to the ``observer`` bound where the middleware starts it: bind one around
/// the rest of the chain in a middleware placed first, and every action's work is seen.
///
/// ```swift
/// struct Start: StoreAction {}
///
/// let running = MutableProperty<[String]>([])
/// let watching: Middleware<Int> = { _, _, next in
///   { action in
///     let observer: EffectTracking.Observer = { description in
///       running.modify { $0.append(description) }
///       return { running.modify { $0.removeAll { $0 == description } } }
///     }
///     EffectTracking.$observer.withValue(observer) { next(action) }
///   }
/// }
/// let effects = EffectMiddleware<Start, Start, Int, Void>.onAction { _, _, _ in
///   Empty(completeImmediately: false).asEffect()
/// }
/// let store = Store(
///   reducer: { (_: inout Int, _: any StoreAction) in }, state: 0,
///   middlewares: [watching, effects.asMiddleware()])
/// store.dispatch(Start())
/// print(running.value.count)  // Prints: 1
/// ```
///
/// Custom middlewares can report their own work with ``start(_:)``.
public enum EffectTracking {
  /// Called when a middleware starts a piece of work, with a description of it (what it is and
  /// where it was written), on the thread processing the action. Returns the function to call
  /// when the work ends; that function is called exactly once, from any thread.
  public typealias Observer = @Sendable (_ description: String) -> @Sendable () -> Void

  /// The observer of the work started by the code running now, if any.
  ///
  /// A task-local value: bind it with `EffectTracking.$observer.withValue(observer) { ... }`.
  /// Synchronous code reads the value bound by the innermost `withValue` on its thread.
  @TaskLocal public static var observer: Observer?

  /// Reports the start of a piece of work to the current ``observer``, and returns the handle
  /// that reports its end; `nil` (and `description` is not evaluated) when no observer is bound.
  ///
  /// ```swift
  /// let work = EffectTracking.start("the polling timer of SyncMiddleware")
  /// // ... later, when the work ends:
  /// work?.end()
  /// ```
  public static func start(_ description: @autoclosure () -> String) -> TrackedEffect? {
    guard let observer else { return nil }
    return TrackedEffect(end: observer(description()))
  }
}

/// A piece of work reported to an ``EffectTracking/Observer``: call ``end()`` when it is over.
public final class TrackedEffect: Sendable {
  private let onEnd: @Sendable () -> Void
  private let ended = Atomic<Bool>(false)

  init(end: @escaping @Sendable () -> Void) {
    onEnd = end
  }

  /// Reports the end of the work to the observer. Only the first call counts.
  public func end() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    onEnd()
  }
}
