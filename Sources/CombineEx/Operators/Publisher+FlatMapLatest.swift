import CombineExCore

extension Publisher {
  /// Maps each value to a publisher and republishes the values of the latest one only: a new
  /// value cancels the publisher made for the previous one.
  ///
  /// ```swift
  /// let queries = PassthroughSubject<String, Never>()
  /// let cancellable = queries
  ///   .flatMapLatest { query in ["\(query)1", "\(query)2"].publisher }
  ///   .sink { print($0) }
  /// queries.send("a")
  /// queries.send("b")
  /// // Prints: a1, a2, b1, b2
  /// ```
  ///
  /// The result is `map(transform).switchToLatest()`, so it behaves like Combine's
  /// `switchToLatest` (and stays cold on a cold publisher): it finishes once the upstream and
  /// the latest inner publisher have finished, and fails as soon as either fails. CombineExt
  /// has a `flatMapLatest` too: see Docs/Migrating.md for the module-qualified spelling when
  /// both are imported.
  public func flatMapLatest<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> {
    Publishers.SwitchToLatest(upstream: Publishers.Map(upstream: self, transform: transform))
  }
}
