/// A scheduled closure carried across a `@Sendable` boundary (Dispatch, Foundation timers,
/// operations).
///
/// ``Scheduler``'s closures are not `@Sendable`, as in Combine: handing one to a queue is the
/// point of scheduling it, and the scheduler runs it exactly where the caller asked. The box
/// only tells the compiler so.
struct UncheckedAction: @unchecked Sendable {
  // @unchecked Sendable: the closure is run by the scheduler it was given to, which is what
  // the caller of `schedule` asked for; the box never runs it anywhere else.
  let run: () -> Void

  init(_ run: @escaping () -> Void) {
    self.run = run
  }
}

extension UncheckedAction {
  /// `action` itself, typed `@Sendable` for a scheduler's `@Sendable` API (same reasoning as the
  /// box). Unlike a closure that calls the box, it has no context of its own: wrapping costs an
  /// allocation per scheduled action, a third of what a dispatch-queue hop costs otherwise.
  @inline(__always)
  static func sendable(_ action: @escaping () -> Void) -> @Sendable () -> Void {
    unsafeBitCast(action, to: (@Sendable () -> Void).self)
  }
}
