import CombineEx

/// A unit of work that produces values (typically actions) over time: a publisher, with the
/// constructors and operators of The Composable Architecture's `Effect`.
///
/// ```swift
/// let effect = Effect<Int, Never>.merge(
///   Effect(value: 1),
///   Effect.future { promise in promise(.success(2)) })
/// let cancellable = effect.sink { print($0) }
/// // Prints: 1
/// // Prints: 2
/// ```
///
/// An effect is cold: nothing runs until it is subscribed, and each subscription runs the work
/// again. It is a publisher, so every operator applies; the ones defined here (``map(_:)``,
/// ``merge(_:)-(Effect<Output,Failure>...)``, ``cancellable(id:cancelInFlight:)``,
/// ``debounce(id:for:scheduler:options:)`` ...) keep the result an `Effect`.
///
/// Construct one with ``none``, ``init(_:)``, ``init(value:)``, ``init(error:)``,
/// ``future(_:)``, ``result(_:)``, ``run(_:)`` (a subscriber to send to), the async
/// `run { send in ... }` and ``task(priority:operation:)-1vdmm``,
/// ``fireAndForget(_:)`` and ``catching(_:)``, or with `publisher.eraseToEffect()`.
///
/// ## Cancellation
/// ``cancellable(id:cancelInFlight:)`` makes a run cancellable by id: ``cancel(id:)`` returns an
/// effect that, when it runs, cancels every run in flight with that id. A cancelled run stops
/// its work and *finishes* (its subscriber receives `.finished`). Ids are any `Hashable` values,
/// told apart by type as well as value.
///
/// Ids live in the table of the store that runs the effect (each `Store`, and so each
/// `TestStore`, has its own, as in TCA 1.x): two stores running the same feature never cancel
/// each other's effects. An effect run by a store's middleware gets the store's table, which
/// travels with it into every effect it is made of (``merge(_:)-(Effect<Output,Failure>...)``,
/// ``concatenate(_:)-(Effect<Output,Failure>...)``, ``map(_:)``, the inner work of
/// ``debounce(id:for:scheduler:options:)`` ...), on whatever thread and at whatever time those
/// parts start. An effect made while a store processes an action (in a middleware's handler)
/// keeps that store's table wherever and whenever it is subscribed, even by a plain operator on
/// another thread (`subscribe(on:)`, a `flatMap` after a `delay`). Any other effect (one made
/// later, outside any store's processing) uses the table of the store processing an action on
/// the thread that subscribes it, or else a process-wide table (a test that calls `sink`
/// itself, for example).
///
/// An ``EffectMiddleware`` also has its own, per-middleware cancellation tokens
/// (``CombineExCore/Publisher/asEffect(cancellationToken:)``).
public struct Effect<Output, Failure: Error>: Publisher {
  /// Builds the work of one subscription for the cancellation table it runs in. It only builds
  /// publishers: nothing runs (no id is filed or cancelled) before they are subscribed.
  @usableFromInline
  let work: (CancellationRegistry) -> AnyPublisher<Output, Failure>

  /// The cancellation token an ``EffectMiddleware`` files this effect under, if any.
  @usableFromInline
  let token: CancellationKey?

  /// The cancellation table of the store that was processing an action on the thread that made
  /// this effect, if any: subscribed anywhere later (on another thread, by a plain operator), the
  /// effect still uses it. `nil` for an effect that wraps a plain publisher, which uses no table.
  @usableFromInline
  let boundRegistry: CancellationRegistry?

  /// What an ``EffectMiddleware`` does at once instead of subscribing, for an effect that only
  /// cancels and finishes (``cancel(id:)``, ``cancel(ids:)``, ``none``); `nil` for the others.
  @usableFromInline
  let atOnce: CancellingWork?

  /// Wraps a publisher.
  ///
  /// ```swift
  /// let effect = Effect([1, 2, 3].publisher)
  /// let cancellable = effect.sink { print($0) }  // Prints: 1, 2, 3
  /// ```
  @inlinable
  public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    // Inlinable, as the constructors that wrap a publisher (`asEffect()`, `cancellable(id:)`):
    // made where the publisher's type is known, the wrapping is specialized for it (the cast,
    // the erasure and the closure looked up generic types at every effect otherwise).
    if let effect = publisher as? Effect {
      self = effect
    } else {
      let erased = publisher.eraseToAnyPublisher()
      self.init(work: { _ in erased }, token: nil, boundRegistry: nil)
    }
  }

  /// An effect doing `work`, bound to the table of the store processing an action on this
  /// thread, if any (an effect derived from others passes theirs: see ``derivedBinding``).
  @usableFromInline
  init(
    work: @escaping (CancellationRegistry) -> AnyPublisher<Output, Failure>,
    token: CancellationKey?,
    boundRegistry: CancellationRegistry? = CancellationRegistry.current,
    atOnce: CancellingWork? = nil
  ) {
    self.work = work
    self.token = token
    self.boundRegistry = boundRegistry
    self.atOnce = atOnce
  }

  /// The binding of an effect made from this one: this one's, or the table of the store
  /// processing an action on this thread.
  @usableFromInline
  var derivedBinding: CancellationRegistry? {
    boundRegistry ?? CancellationRegistry.current
  }

  /// An effect that does nothing and finishes at once.
  ///
  /// ```swift
  /// let cancellable = Effect<Int, Never>.none.sink(
  ///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: finished
  /// ```
  public static var none: Effect {
    Effect(
      work: { _ in Empty(completeImmediately: true).eraseToAnyPublisher() }, token: nil,
      boundRegistry: nil, atOnce: .nothing)
  }

  /// The token an ``EffectMiddleware`` files this effect under (set by
  /// ``CombineExCore/Publisher/asEffect(cancellationToken:)``), if any.
  public var cancellationToken: AnyHashable? {
    token?.value
  }

  /// Runs the work for `subscriber`, with the cancellation ids in the table of the store that
  /// was processing an action where the effect was made, if any; otherwise in the table of the
  /// store processing an action on this thread, if any; otherwise in the process-wide table.
  public func receive<S: CombineExCore.Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    work(boundRegistry ?? CancellationRegistry.current ?? .shared).receive(subscriber: subscriber)
  }

  /// The work, with its cancellation ids in `registry`.
  func publisher(in registry: CancellationRegistry) -> AnyPublisher<Output, Failure> {
    work(registry)
  }

  /// The same work under another token.
  @usableFromInline
  func withToken(_ token: CancellationKey?) -> Effect {
    Effect(work: work, token: token, boundRegistry: boundRegistry, atOnce: atOnce)
  }
}
