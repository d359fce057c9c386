import CombineEx

extension Effect {
  /// Makes each run of this effect cancellable by `id`, with ``cancel(id:)``.
  ///
  /// ```swift
  /// enum SearchID {}
  ///
  /// let responses = PassthroughSubject<String, Never>()
  /// let cancellable = Effect(responses)
  ///   .cancellable(id: ObjectIdentifier(SearchID.self))
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// responses.send("first")  // Prints: first
  /// let cancelling = Effect<Never, Never>.cancel(id: ObjectIdentifier(SearchID.self))
  ///   .sink { _ in }
  /// // Prints: finished
  /// responses.send("second")  // Prints nothing: the effect was cancelled
  /// ```
  ///
  /// A run is in flight from its subscription until it completes or its subscriber cancels.
  /// A run cancelled by id stops its work (the upstream is cancelled) and finishes: its
  /// subscriber receives `.finished`.
  ///
  /// - Parameters:
  ///   - id: Any `Hashable` value. Ids are told apart by type as well as value, and live in the
  ///     table of the store that runs the effect (see "Cancellation" in ``Effect``): a run in
  ///     one store is never cancelled by another store's effects.
  ///   - cancelInFlight: When `true`, subscribing first cancels the runs in flight under `id`,
  ///     which stop (and finish) before the new run starts: only the latest run survives.
  @inlinable
  public func cancellable<ID: Hashable>(id: ID, cancelInFlight: Bool = false) -> Effect {
    let work = self.work
    let key = CancellationKey(id)
    return Effect(
      work: { registry in
        CancellableEffectPublisher(
          upstream: work(registry), key: key, cancelInFlight: cancelInFlight, registry: registry
        ).eraseToAnyPublisher()
      },
      token: token, boundRegistry: derivedBinding)
  }

  /// An effect that, when it runs, cancels every run in flight under `id`, then finishes
  /// without publishing anything. An id with nothing in flight is ignored. A value that
  /// ``throttle(id:for:scheduler:latest:)`` holds under `id` for the end of its window is
  /// dropped: it is never published. Only the runs in the table of the store that runs this
  /// effect are cancelled.
  ///
  /// ```swift
  /// let ticks = PassthroughSubject<Int, Never>()
  /// let cancellable = Effect(ticks).cancellable(id: "ticks")
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ticks.send(1)  // Prints: 1
  /// let cancelling = Effect<Int, Never>.cancel(id: "ticks").sink { _ in }
  /// // Prints: finished
  /// ```
  @inlinable
  public static func cancel<ID: Hashable>(id: ID) -> Effect {
    cancelling(CancellingWork(.one(CancellationKey(id))))
  }

  /// An effect that, when it runs, cancels every run in flight under each of `ids`, then
  /// finishes without publishing anything, as ``cancel(id:)`` does for each id.
  ///
  /// ```swift
  /// let cancelAll = Effect<Int, Never>.cancel(ids: [AnyHashable("search"), AnyHashable(42)])
  /// ```
  public static func cancel<IDs: Sequence>(ids: IDs) -> Effect where IDs.Element: Hashable {
    cancelling(CancellingWork(.several(ids.map { CancellationKey($0) })))
  }

  /// An effect doing `work`, which an ``EffectMiddleware`` runs at once, without subscribing.
  @usableFromInline
  static func cancelling(_ work: CancellingWork) -> Effect {
    Effect(
      work: { registry in
        CancellingPublisher(work: work, registry: registry).eraseToAnyPublisher()
      }, token: nil, atOnce: work)
  }
}
