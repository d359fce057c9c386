import CombineExCore

extension PropertyProtocol {
  /// Derives a property whose value pairs this property's previous value with its current one.
  ///
  /// ```swift
  /// let page = MutableProperty(1)
  /// let moves = page.combinePrevious(0)
  /// let cancellable = moves.sink { print("\($0) -> \($1)") }  // Prints: 0 -> 1
  /// page.value = 2  // Prints: 1 -> 2
  /// page.value = 5  // Prints: 2 -> 5
  /// ```
  ///
  /// The first pair is `(initial, value)`. The result is **eager**: it subscribes to this
  /// property once, at once, and every subscriber shares that one sequence of pairs (a
  /// subscriber that comes later receives the latest pair, whose `previous` is the value before
  /// the current one, not `initial`). It stays subscribed while the returned property or any of
  /// its subscribers is alive.
  @inlinable
  public func combinePrevious(_ initial: Output) -> Property<(Output, Output)> {
    Property(
      deriving: Publishers.Scan(upstream: self, initialResult: (initial, initial)) { ($0.1, $1) },
      from: self
    ) { (initial, value) }
  }
}
