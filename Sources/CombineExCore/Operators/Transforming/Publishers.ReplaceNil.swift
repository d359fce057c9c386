// `replaceNil(with:)` has no publisher type of its own: as in Combine, it is a
// `Publishers.Map` that unwraps each element or substitutes the replacement.

extension Publisher {
  /// Replaces nil elements in the stream with the provided element.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int?, Never>()
  /// let cancellable = subject
  ///   .replaceNil(with: 0)
  ///   .sink { print($0) }
  /// subject.send(1)
  /// subject.send(nil)
  /// subject.send(3)
  /// // Prints: 1, 0, 3
  /// ```
  ///
  /// The result is a `Publishers.Map`, so it is as cheap as `map` and fuses with it.
  public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
    Publishers.Map(upstream: self) { $0 ?? output }
  }
}
