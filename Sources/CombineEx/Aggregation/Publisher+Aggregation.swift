import CombineExCore

// The original CombineEx's wider `combineLatest` and `zip`: with 4 to 9 other publishers, the
// static `combineLatest` of 2 to 10 publishers, and the array forms. Each returns a
// `Publishers.Aggregate`.

extension Publisher {
  /// Combines this publisher with 4 others: publishes a tuple of the latest value of each
  /// whenever any of them publishes, once all have published.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `CombineLatest` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func combineLatest<A, B, C, D>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4))
  }

  /// Combines this publisher with 5 others: publishes a tuple of the latest value of each
  /// whenever any of them publishes, once all have published.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `CombineLatest` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func combineLatest<A, B, C, D, E>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5))
  }

  /// Combines this publisher with 6 others: publishes a tuple of the latest value of each
  /// whenever any of them publishes, once all have published.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `CombineLatest` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func combineLatest<A, B, C, D, E, F>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E, F), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6))
  }

  /// Combines this publisher with 7 others: publishes a tuple of the latest value of each
  /// whenever any of them publishes, once all have published.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `CombineLatest` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func combineLatest<A, B, C, D, E, F, G>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E, F, G), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
      AggregateInput(p7))
  }

  /// Combines this publisher with 8 others: publishes a tuple of the latest value of each
  /// whenever any of them publishes, once all have published.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `CombineLatest` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func combineLatest<A, B, C, D, E, F, G, H>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>,
    _ p8: some Publisher<H, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E, F, G, H), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
      AggregateInput(p7), AggregateInput(p8))
  }

  /// Combines this publisher with 9 others: publishes a tuple of the latest value of each
  /// whenever any of them publishes, once all have published.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `CombineLatest` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func combineLatest<A, B, C, D, E, F, G, H, I>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>,
    _ p8: some Publisher<H, Failure>,
    _ p9: some Publisher<I, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E, F, G, H, I), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
      AggregateInput(p7), AggregateInput(p8), AggregateInput(p9))
  }

  /// Zips this publisher with 4 others: publishes a tuple of the i-th value of each once
  /// all of them have published an i-th value.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `Zip` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func zip<A, B, C, D>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D), Failure> {
    Publishers.Aggregate(
      strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4))
  }

  /// Zips this publisher with 5 others: publishes a tuple of the i-th value of each once
  /// all of them have published an i-th value.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `Zip` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func zip<A, B, C, D, E>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E), Failure> {
    Publishers.Aggregate(
      strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5))
  }

  /// Zips this publisher with 6 others: publishes a tuple of the i-th value of each once
  /// all of them have published an i-th value.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `Zip` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func zip<A, B, C, D, E, F>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E, F), Failure> {
    Publishers.Aggregate(
      strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6))
  }

  /// Zips this publisher with 7 others: publishes a tuple of the i-th value of each once
  /// all of them have published an i-th value.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `Zip` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func zip<A, B, C, D, E, F, G>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E, F, G), Failure> {
    Publishers.Aggregate(
      strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
      AggregateInput(p7))
  }

  /// Zips this publisher with 8 others: publishes a tuple of the i-th value of each once
  /// all of them have published an i-th value.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `Zip` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func zip<A, B, C, D, E, F, G, H>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>,
    _ p8: some Publisher<H, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E, F, G, H), Failure> {
    Publishers.Aggregate(
      strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
      AggregateInput(p7), AggregateInput(p8))
  }

  /// Zips this publisher with 9 others: publishes a tuple of the i-th value of each once
  /// all of them have published an i-th value.
  ///
  /// Returns a ``Publishers/Aggregate`` (Combine's own `Zip` types cover one to three
  /// others); see it for demand, completion, cancellation and threading.
  @inlinable
  public func zip<A, B, C, D, E, F, G, H, I>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>,
    _ p8: some Publisher<H, Failure>,
    _ p9: some Publisher<I, Failure>
  ) -> Publishers.Aggregate<(Output, A, B, C, D, E, F, G, H, I), Failure> {
    Publishers.Aggregate(
      strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
      AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
      AggregateInput(p7), AggregateInput(p8), AggregateInput(p9))
  }

  /// Combines 2 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>
  ) -> Publishers.Aggregate<(A, B), Failure> {
    Publishers.Aggregate(strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2))
  }

  /// Combines 3 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B, C>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>
  ) -> Publishers.Aggregate<(A, B, C), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3))
  }

  /// Combines 4 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B, C, D>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>
  ) -> Publishers.Aggregate<(A, B, C, D), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
      AggregateInput(p4))
  }

  /// Combines 5 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B, C, D, E>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>
  ) -> Publishers.Aggregate<(A, B, C, D, E), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
      AggregateInput(p4), AggregateInput(p5))
  }

  /// Combines 6 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B, C, D, E, F>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>
  ) -> Publishers.Aggregate<(A, B, C, D, E, F), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
      AggregateInput(p4), AggregateInput(p5), AggregateInput(p6))
  }

  /// Combines 7 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B, C, D, E, F, G>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>
  ) -> Publishers.Aggregate<(A, B, C, D, E, F, G), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
      AggregateInput(p4), AggregateInput(p5), AggregateInput(p6), AggregateInput(p7))
  }

  /// Combines 8 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B, C, D, E, F, G, H>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>,
    _ p8: some Publisher<H, Failure>
  ) -> Publishers.Aggregate<(A, B, C, D, E, F, G, H), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
      AggregateInput(p4), AggregateInput(p5), AggregateInput(p6), AggregateInput(p7),
      AggregateInput(p8))
  }

  /// Combines 9 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B, C, D, E, F, G, H, I>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>,
    _ p8: some Publisher<H, Failure>,
    _ p9: some Publisher<I, Failure>
  ) -> Publishers.Aggregate<(A, B, C, D, E, F, G, H, I), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
      AggregateInput(p4), AggregateInput(p5), AggregateInput(p6), AggregateInput(p7),
      AggregateInput(p8), AggregateInput(p9))
  }

  /// Combines 10 publishers of this type's `Failure`: publishes a tuple of the latest value
  /// of each whenever any of them publishes, once all have published.
  ///
  /// Called on a publisher type, whose `Output` is not used:
  /// `AnyPublisher<Int, MyError>.combineLatest(a, b)`. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest<A, B, C, D, E, F, G, H, I, J>(
    _ p1: some Publisher<A, Failure>,
    _ p2: some Publisher<B, Failure>,
    _ p3: some Publisher<C, Failure>,
    _ p4: some Publisher<D, Failure>,
    _ p5: some Publisher<E, Failure>,
    _ p6: some Publisher<F, Failure>,
    _ p7: some Publisher<G, Failure>,
    _ p8: some Publisher<H, Failure>,
    _ p9: some Publisher<I, Failure>,
    _ p10: some Publisher<J, Failure>
  ) -> Publishers.Aggregate<(A, B, C, D, E, F, G, H, I, J), Failure> {
    Publishers.Aggregate(
      strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
      AggregateInput(p4), AggregateInput(p5), AggregateInput(p6), AggregateInput(p7),
      AggregateInput(p8), AggregateInput(p9), AggregateInput(p10))
  }

  /// Zips the publishers of `array`: publishes an array of their i-th values once every one of
  /// them has published an i-th value.
  ///
  /// ```swift
  /// let cancellable = AnyPublisher<Int, Never>.zip(array: [[1, 2].publisher, [10, 20].publisher])
  ///   .sink { print($0) }
  /// // Prints: [1, 10], [2, 20]
  /// ```
  ///
  /// Called on a publisher type whose `Output` and `Failure` are the elements'. With an empty
  /// array it finishes at once. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func zip(
    array: [some Publisher<Output, Failure>]
  ) -> Publishers.Aggregate<[Output], Failure> {
    Publishers.Aggregate(strategy: .zip, array)
  }

  /// Combines the publishers of `array`: publishes an array of the latest value of each
  /// whenever any of them publishes, once all have published.
  ///
  /// ```swift
  /// let a = CurrentValueSubject<Int, Never>(1)
  /// let b = CurrentValueSubject<Int, Never>(2)
  /// let cancellable = AnyPublisher<Int, Never>.combineLatest(array: [a, b]).sink { print($0) }
  /// b.send(3)
  /// // Prints: [1, 2], [1, 3]
  /// ```
  ///
  /// Called on a publisher type whose `Output` and `Failure` are the elements'. With an empty
  /// array it finishes at once. Returns a ``Publishers/Aggregate``.
  @inlinable
  public static func combineLatest(
    array: [some Publisher<Output, Failure>]
  ) -> Publishers.Aggregate<[Output], Failure> {
    Publishers.Aggregate(strategy: .combineLatest, array)
  }

}
