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

extension Publishers.Sequence {
  /// Replaces the nil elements of the sequence with `output`, at once.
  ///
  /// As in Combine, the elements keep their optional type: the result publishes
  /// `Optional(output)` where the sequence had `nil`.
  ///
  /// ```swift
  /// let numbers: [Double?] = [1.0, nil, 3.0]
  /// let cancellable = numbers.publisher
  ///   .replaceNil(with: 0.0)
  ///   .sink { print($0 as Any) }
  /// // Prints: Optional(1.0), Optional(0.0), Optional(3.0)
  /// ```
  public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
  where Elements.Element == T? {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
  }
}
