import CombineExCore

// Cold forms of the aggregation operators: a `Publishers.Aggregate` erases its inputs, so it
// cannot be cold by conformance the way Combine's `CombineLatest` is. These disfavoured
// overloads, for cold inputs only, wrap it in a `Deferred` (one aggregate per subscription), so
// that `cold.combineLatest(a, b, c, d).eraseToAnyDeferredPublisher()` compiles, as it does in
// the original CombineEx. Without a type context the `Publisher` forms win.

extension ColdPublisher {
  /// `combineLatest` of this cold publisher with 4 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/combineLatest(_:_:_:_:)`.
  @_disfavoredOverload
  public func combineLatest<A, B, C, D>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4))
    }
  }

  /// `combineLatest` of this cold publisher with 5 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/combineLatest(_:_:_:_:_:)`.
  @_disfavoredOverload
  public func combineLatest<A, B, C, D, E>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5))
    }
  }

  /// `combineLatest` of this cold publisher with 6 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/combineLatest(_:_:_:_:_:_:)`.
  @_disfavoredOverload
  public func combineLatest<A, B, C, D, E, F>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E, F), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6))
    }
  }

  /// `combineLatest` of this cold publisher with 7 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/combineLatest(_:_:_:_:_:_:_:)`.
  @_disfavoredOverload
  public func combineLatest<A, B, C, D, E, F, G>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E, F, G), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
        AggregateInput(p7))
    }
  }

  /// `combineLatest` of this cold publisher with 8 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/combineLatest(_:_:_:_:_:_:_:_:)`.
  @_disfavoredOverload
  public func combineLatest<A, B, C, D, E, F, G, H>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>,
    _ p8: some ColdPublisher<H, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E, F, G, H), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
        AggregateInput(p7), AggregateInput(p8))
    }
  }

  /// `combineLatest` of this cold publisher with 9 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/combineLatest(_:_:_:_:_:_:_:_:_:)`.
  @_disfavoredOverload
  public func combineLatest<A, B, C, D, E, F, G, H, I>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>,
    _ p8: some ColdPublisher<H, Failure>,
    _ p9: some ColdPublisher<I, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E, F, G, H, I), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
        AggregateInput(p7), AggregateInput(p8), AggregateInput(p9))
    }
  }

  /// `zip` of this cold publisher with 4 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/zip(_:_:_:_:)`.
  @_disfavoredOverload
  public func zip<A, B, C, D>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4))
    }
  }

  /// `zip` of this cold publisher with 5 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/zip(_:_:_:_:_:)`.
  @_disfavoredOverload
  public func zip<A, B, C, D, E>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5))
    }
  }

  /// `zip` of this cold publisher with 6 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/zip(_:_:_:_:_:_:)`.
  @_disfavoredOverload
  public func zip<A, B, C, D, E, F>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E, F), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6))
    }
  }

  /// `zip` of this cold publisher with 7 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/zip(_:_:_:_:_:_:_:)`.
  @_disfavoredOverload
  public func zip<A, B, C, D, E, F, G>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E, F, G), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
        AggregateInput(p7))
    }
  }

  /// `zip` of this cold publisher with 8 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/zip(_:_:_:_:_:_:_:_:)`.
  @_disfavoredOverload
  public func zip<A, B, C, D, E, F, G, H>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>,
    _ p8: some ColdPublisher<H, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E, F, G, H), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
        AggregateInput(p7), AggregateInput(p8))
    }
  }

  /// `zip` of this cold publisher with 9 other cold publishers, itself cold: the
  /// `Publishers.Aggregate` is made anew for each subscription, so the result erases with
  /// `eraseToAnyDeferredPublisher()`.
  ///
  /// Disfavoured: without a type context the `Publisher` form (a `Publishers.Aggregate`) is
  /// chosen; this one is chosen where a cold publisher is needed. See
  /// `Publisher/zip(_:_:_:_:_:_:_:_:_:)`.
  @_disfavoredOverload
  public func zip<A, B, C, D, E, F, G, H, I>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>,
    _ p8: some ColdPublisher<H, Failure>,
    _ p9: some ColdPublisher<I, Failure>
  ) -> Deferred<Publishers.Aggregate<(Output, A, B, C, D, E, F, G, H, I), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .zip, AggregateInput(self), AggregateInput(p1), AggregateInput(p2),
        AggregateInput(p3), AggregateInput(p4), AggregateInput(p5), AggregateInput(p6),
        AggregateInput(p7), AggregateInput(p8), AggregateInput(p9))
    }
  }

  /// `combineLatest` of 2 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B), Failure>> {
    Deferred {
      Publishers.Aggregate(strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2))
    }
  }

  /// `combineLatest` of 3 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B, C>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B, C), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3))
    }
  }

  /// `combineLatest` of 4 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B, C, D>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B, C, D), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
        AggregateInput(p4))
    }
  }

  /// `combineLatest` of 5 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:_:_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B, C, D, E>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B, C, D, E), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
        AggregateInput(p4), AggregateInput(p5))
    }
  }

  /// `combineLatest` of 6 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:_:_:_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B, C, D, E, F>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B, C, D, E, F), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
        AggregateInput(p4), AggregateInput(p5), AggregateInput(p6))
    }
  }

  /// `combineLatest` of 7 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:_:_:_:_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B, C, D, E, F, G>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B, C, D, E, F, G), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
        AggregateInput(p4), AggregateInput(p5), AggregateInput(p6), AggregateInput(p7))
    }
  }

  /// `combineLatest` of 8 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:_:_:_:_:_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B, C, D, E, F, G, H>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>,
    _ p8: some ColdPublisher<H, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B, C, D, E, F, G, H), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
        AggregateInput(p4), AggregateInput(p5), AggregateInput(p6), AggregateInput(p7),
        AggregateInput(p8))
    }
  }

  /// `combineLatest` of 9 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:_:_:_:_:_:_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B, C, D, E, F, G, H, I>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>,
    _ p8: some ColdPublisher<H, Failure>,
    _ p9: some ColdPublisher<I, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B, C, D, E, F, G, H, I), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
        AggregateInput(p4), AggregateInput(p5), AggregateInput(p6), AggregateInput(p7),
        AggregateInput(p8), AggregateInput(p9))
    }
  }

  /// `combineLatest` of 10 cold publishers, itself cold: see
  /// `Publisher/combineLatest(_:_:_:_:_:_:_:_:_:_:)`. Disfavoured: chosen only where a cold
  /// publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest<A, B, C, D, E, F, G, H, I, J>(
    _ p1: some ColdPublisher<A, Failure>,
    _ p2: some ColdPublisher<B, Failure>,
    _ p3: some ColdPublisher<C, Failure>,
    _ p4: some ColdPublisher<D, Failure>,
    _ p5: some ColdPublisher<E, Failure>,
    _ p6: some ColdPublisher<F, Failure>,
    _ p7: some ColdPublisher<G, Failure>,
    _ p8: some ColdPublisher<H, Failure>,
    _ p9: some ColdPublisher<I, Failure>,
    _ p10: some ColdPublisher<J, Failure>
  ) -> Deferred<Publishers.Aggregate<(A, B, C, D, E, F, G, H, I, J), Failure>> {
    Deferred {
      Publishers.Aggregate(
        strategy: .combineLatest, AggregateInput(p1), AggregateInput(p2), AggregateInput(p3),
        AggregateInput(p4), AggregateInput(p5), AggregateInput(p6), AggregateInput(p7),
        AggregateInput(p8), AggregateInput(p9), AggregateInput(p10))
    }
  }

  /// `zip(array:)` of cold publishers, itself cold: see `Publisher/zip(array:)`. Disfavoured:
  /// chosen only where a cold publisher is needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func zip(
    array: [some ColdPublisher<Output, Failure>]
  ) -> Deferred<Publishers.Aggregate<[Output], Failure>> {
    Deferred { Publishers.Aggregate(strategy: .zip, array) }
  }

  /// `combineLatest(array:)` of cold publishers, itself cold: see
  /// `Publisher/combineLatest(array:)`. Disfavoured: chosen only where a cold publisher is
  /// needed (`eraseToAnyDeferredPublisher()`).
  @_disfavoredOverload
  public static func combineLatest(
    array: [some ColdPublisher<Output, Failure>]
  ) -> Deferred<Publishers.Aggregate<[Output], Failure>> {
    Deferred { Publishers.Aggregate(strategy: .combineLatest, array) }
  }

}
