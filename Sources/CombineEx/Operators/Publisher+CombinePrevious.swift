import CombineExCore

extension Publisher {
  /// Pairs each value with the one before it: `(previous, current)`, where the first value's
  /// previous is `nil`.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher.combinePrevious()
  ///   .sink { print("\($0.0.map(String.init) ?? "-")→\($0.1)") }
  /// // Prints: -→1, 1→2, 2→3
  /// ```
  ///
  /// Use ``combinePrevious(_:)`` to give the first value a previous one. (A property's
  /// `combinePrevious(_:)` returns a `Property` instead.)
  public func combinePrevious()
    -> Publishers.CompactMap<Publishers.Scan<Self, (Output?, Output)?>, (Output?, Output)>
  {
    Publishers.Scan(upstream: self, initialResult: nil) { last, value in (last?.1, value) }
      .compactMap { $0 }
  }

  /// Pairs each value with the one before it, `initial` standing in for the first value's
  /// previous one.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher.combinePrevious(0)
  ///   .sink { print("\($0.0)→\($0.1)") }
  /// // Prints: 0→1, 1→2, 2→3
  /// ```
  public func combinePrevious(_ initial: Output) -> Publishers.Scan<Self, (Output, Output)> {
    Publishers.Scan(upstream: self, initialResult: (initial, initial)) { last, value in
      (last.1, value)
    }
  }

  /// Pairs each optional value with the one before it, keeping the values' own optional type:
  /// `(previous, current)` as `(T?, T?)`, where the first value's previous is `nil`.
  ///
  /// ```swift
  /// let cancellable = [1, nil, 3].publisher.combinePrevious()
  ///   .sink { print("\($0.0.map(String.init) ?? "nil")→\($0.1.map(String.init) ?? "nil")") }
  /// // Prints: nil→1, 1→nil, nil→3
  /// ```
  ///
  /// Without a type context, a publisher of optionals gets ``combinePrevious()`` (whose pairs
  /// are `(T??, T?)`); this form is chosen where the context asks for `(T?, T?)` pairs, as in
  /// the original CombineEx. A missing previous value and a `nil` previous value both read
  /// `nil` here.
  public func combinePrevious<T>()
    -> Publishers.CompactMap<Publishers.Scan<Self, (Output, Output)?>, (Output, Output)>
  where Output == T? {
    Publishers.Scan(upstream: self, initialResult: nil) { last, value in
      (last?.1 ?? nil, value)
    }
    .compactMap { $0 }
  }
}
