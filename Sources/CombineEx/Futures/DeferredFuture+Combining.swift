import CombineExCore

// Combining futures: wait for every future's value; fail on the first failure, cancelling the
// others. For futures, which publish one value each, `zip` and `combineLatest` mean the same
// thing; both names exist so that code reads as it would with publishers.

extension DeferredFutureProtocol {
  /// Runs this future and `other` side by side and publishes both values as a pair.
  ///
  /// ```swift
  /// let name = DeferredFuture<String, Never>.just("Ada")
  /// let age = DeferredFuture<Int, Never>.just(36)
  /// let cancellable = name.zip(age).sink { print("\($0) is \($1)") }
  /// // Prints: Ada is 36
  /// ```
  ///
  /// Per subscription, both futures start at once (this one first), each running its work
  /// once. The pair is published when both values are in (and the subscriber has demand),
  /// followed by `.finished`. The first failure fails the result at once and cancels the
  /// other future; cancelling the result cancels both.
  public func zip<Other: DeferredFutureProtocol>(
    _ other: Other
  ) -> DeferredFuture<(Output, Other.Output), Failure> where Other.Failure == Failure {
    DeferredFuture<(Output, Other.Output), Failure>(
      publisher: FuturePair(first: erasedPublisher, second: other.erasedPublisher))
  }

  /// Runs this future and `other` side by side and publishes `transform` of both values.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(2)
  ///   .zip(DeferredFuture<Int, Never>.just(3)) { $0 * $1 }
  ///   .sink { print($0) }
  /// // Prints: 6
  /// ```
  public func zip<Other: DeferredFutureProtocol, T>(
    _ other: Other, _ transform: @escaping (Output, Other.Output) -> T
  ) -> DeferredFuture<T, Failure> where Other.Failure == Failure {
    zip(other).map(transform)
  }

  /// Runs this future and two others side by side and publishes the three values.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(1)
  ///   .zip(DeferredFuture<String, Never>.just("b"), DeferredFuture<Bool, Never>.just(true))
  ///   .sink { print($0) }
  /// // Prints: (1, "b", true)
  /// ```
  public func zip<B: DeferredFutureProtocol, C: DeferredFutureProtocol>(
    _ b: B, _ c: C
  ) -> DeferredFuture<(Output, B.Output, C.Output), Failure>
  where B.Failure == Failure, C.Failure == Failure {
    zip(b).zip(c).map { ($0.0, $0.1, $1) }
  }

  /// Runs this future and two others side by side and publishes `transform` of the three
  /// values.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let cancellable = one.zip(one, one) { $0 + $1 + $2 }.sink { print($0) }
  /// // Prints: 3 — each of the three subscriptions ran the work once
  /// ```
  public func zip<B: DeferredFutureProtocol, C: DeferredFutureProtocol, T>(
    _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> T
  ) -> DeferredFuture<T, Failure> where B.Failure == Failure, C.Failure == Failure {
    zip(b, c).map(transform)
  }

  /// Runs this future and three others side by side and publishes the four values.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let cancellable = one.zip(one, one, one).sink { print($0) }
  /// // Prints: (1, 1, 1, 1)
  /// ```
  public func zip<B: DeferredFutureProtocol, C: DeferredFutureProtocol, D: DeferredFutureProtocol>(
    _ b: B, _ c: C, _ d: D
  ) -> DeferredFuture<(Output, B.Output, C.Output, D.Output), Failure>
  where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
    zip(b).zip(c.zip(d)).map { ($0.0, $0.1, $1.0, $1.1) }
  }

  /// Runs this future and three others side by side and publishes `transform` of the four
  /// values.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let cancellable = one.zip(one, one, one) { $0 + $1 + $2 + $3 }.sink { print($0) }
  /// // Prints: 4
  /// ```
  public func zip<
    B: DeferredFutureProtocol, C: DeferredFutureProtocol, D: DeferredFutureProtocol, T
  >(
    _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> T
  ) -> DeferredFuture<T, Failure>
  where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
    zip(b, c, d).map(transform)
  }

  /// Runs this future and `other` side by side and publishes both values as a pair: the same
  /// as ``DeferredFutureProtocol/zip(_:)``, since each future has one value.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(1)
  ///   .combineLatest(DeferredFuture<String, Never>.just("a"))
  ///   .sink { print($0) }
  /// // Prints: (1, "a")
  /// ```
  public func combineLatest<Other: DeferredFutureProtocol>(
    _ other: Other
  ) -> DeferredFuture<(Output, Other.Output), Failure> where Other.Failure == Failure {
    zip(other)
  }

  /// Runs this future and `other` side by side and publishes `transform` of both values: the
  /// same as ``DeferredFutureProtocol/zip(_:_:)-2aqvx``.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<Int, Never>.just(2)
  ///   .combineLatest(DeferredFuture<Int, Never>.just(5), +)
  ///   .sink { print($0) }
  /// // Prints: 7
  /// ```
  public func combineLatest<Other: DeferredFutureProtocol, T>(
    _ other: Other, _ transform: @escaping (Output, Other.Output) -> T
  ) -> DeferredFuture<T, Failure> where Other.Failure == Failure {
    zip(other, transform)
  }

  /// Runs this future and two others side by side and publishes the three values: the same as
  /// ``DeferredFutureProtocol/zip(_:_:)-36j4i``.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let cancellable = one.combineLatest(one, one).sink { print($0) }
  /// // Prints: (1, 1, 1)
  /// ```
  public func combineLatest<B: DeferredFutureProtocol, C: DeferredFutureProtocol>(
    _ b: B, _ c: C
  ) -> DeferredFuture<(Output, B.Output, C.Output), Failure>
  where B.Failure == Failure, C.Failure == Failure {
    zip(b, c)
  }

  /// Runs this future and two others side by side and publishes `transform` of the three
  /// values.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let cancellable = one.combineLatest(one, one) { $0 + $1 + $2 }.sink { print($0) }
  /// // Prints: 3
  /// ```
  public func combineLatest<B: DeferredFutureProtocol, C: DeferredFutureProtocol, T>(
    _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> T
  ) -> DeferredFuture<T, Failure> where B.Failure == Failure, C.Failure == Failure {
    zip(b, c, transform)
  }

  /// Runs this future and three others side by side and publishes the four values.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let cancellable = one.combineLatest(one, one, one).sink { print($0) }
  /// // Prints: (1, 1, 1, 1)
  /// ```
  public func combineLatest<
    B: DeferredFutureProtocol, C: DeferredFutureProtocol, D: DeferredFutureProtocol
  >(
    _ b: B, _ c: C, _ d: D
  ) -> DeferredFuture<(Output, B.Output, C.Output, D.Output), Failure>
  where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
    zip(b, c, d)
  }

  /// Runs this future and three others side by side and publishes `transform` of the four
  /// values.
  ///
  /// ```swift
  /// let one = DeferredFuture<Int, Never>.just(1)
  /// let cancellable = one.combineLatest(one, one, one) { $0 + $1 + $2 + $3 }.sink { print($0) }
  /// // Prints: 4
  /// ```
  public func combineLatest<
    B: DeferredFutureProtocol, C: DeferredFutureProtocol, D: DeferredFutureProtocol, T
  >(
    _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> T
  ) -> DeferredFuture<T, Failure>
  where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
    zip(b, c, d, transform)
  }
}

extension Array where Element: DeferredFutureProtocol {
  /// Runs every future of the array side by side and publishes their values, in the array's
  /// order.
  ///
  /// ```swift
  /// let futures = [1, 2, 3].map { DeferredFuture<Int, Never>.just($0 * 10) }
  /// let cancellable = futures.zip().sink { print($0) }
  /// // Prints: [10, 20, 30]
  /// ```
  ///
  /// Per subscription, every future starts at once, in the array's order, each running its
  /// work once. The array is published when all values are in (and the subscriber has
  /// demand), then `.finished`. The first failure fails the result at once and cancels the
  /// others; cancelling cancels them all. An empty array publishes `[]` at once.
  public func zip() -> DeferredFuture<[Element.Output], Element.Failure> {
    zipAll(map { $0.eraseToAnyDeferredFuture().future }[...])
  }

  /// Runs every future of the array side by side and publishes their values, in the array's
  /// order: the same as ``zip()``, since each future has one value.
  ///
  /// ```swift
  /// let futures = ["a", "b"].map { DeferredFuture<String, Never>.just($0) }
  /// let cancellable = futures.combineLatest().sink { print($0) }
  /// // Prints: ["a", "b"]
  /// ```
  public func combineLatest() -> DeferredFuture<[Element.Output], Element.Failure> {
    zip()
  }
}

/// Zips futures as a balanced tree of pairs, so that the nesting grows with the logarithm of
/// the count (a thousand futures make ten levels).
private func zipAll<Output, Failure: Error>(
  _ futures: ArraySlice<DeferredFuture<Output, Failure>>
) -> DeferredFuture<[Output], Failure> {
  switch futures.count {
  case 0:
    return .just([])
  case 1:
    return futures[futures.startIndex].map { [$0] }
  default:
    let middle = futures.startIndex + futures.count / 2
    return zipAll(futures[..<middle]).zip(zipAll(futures[middle...])) { $0 + $1 }
  }
}
