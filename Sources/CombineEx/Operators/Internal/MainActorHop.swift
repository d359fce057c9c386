import CombineExCore
import Dispatch

/// Runs `body` on the main actor, asynchronously, after the work already queued for the main
/// queue: the hop the `…OnMainActor` operators make.
///
/// The main queue is first-in first-out, so hops made one after the other (the events of one
/// stream) run in the order they were made, which separate `Task { @MainActor in }` hops do
/// not promise. The main actor runs its work on the main queue, so the work may assume its
/// isolation there.
func hopToMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
  DispatchQueue.main.async { MainActor.assumeIsolated(body) }
}
