import CombineExCore

/// The work of ``Effect/cancel(id:)``, ``Effect/cancel(ids:)`` and ``Effect/none``: cancel the
/// runs in flight under some ids (none for `none`), publish nothing, finish.
///
/// An effect carries it (``Effect/atOnce``) so that an ``EffectMiddleware`` does it at once,
/// without a subscriber, a type-erased publisher and a run in its table, each of which ran in
/// code compiled for any output and looked its generic types up at every action.
@usableFromInline
final class CancellingWork: Sendable {
  /// The ids whose runs are cancelled.
  @usableFromInline
  enum Keys: Sendable {
    case one(CancellationKey)
    case several([CancellationKey])
  }

  let keys: Keys

  @usableFromInline
  init(_ keys: Keys) {
    self.keys = keys
  }

  /// The work of ``Effect/none``: nothing to cancel.
  static let nothing = CancellingWork(.several([]))

  /// Cancels the runs in flight under the ids in `registry`.
  func run(in registry: CancellationRegistry) {
    switch keys {
    case .one(let key):
      registry.cancel(key)
    case .several(let keys):
      for key in keys {
        registry.cancel(key)
      }
    }
  }
}

/// The publisher of a ``CancellingWork``, for any subscriber: each subscription cancels the
/// runs in flight under its ids in `registry`, then finishes at once without publishing
/// anything (as `Effect.fireAndForget { registry.cancel(key) }` would, without its `Deferred`,
/// its `Empty` and their two type erasures).
struct CancellingPublisher<Output, Failure: Error>: Publisher {
  let work: CancellingWork
  /// The table of the store that runs the effect (or the process-wide one).
  let registry: CancellationRegistry

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    work.run(in: registry)
    completeAtOnce(subscriber, with: .finished)
  }
}
