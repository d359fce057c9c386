import CombineExCore

// The original CombineEx's spellings of property combination: unlabelled instance methods
// (`a.combineLatest(b, c)`) and statics (`Property.combineLatest(a, b, c)`). Both build the same
// combination as `combineLatest(with:)`, whose documentation gives the semantics.

extension PropertyProtocol {
  /// Combines this property with another into a property of pairs: the same as
  /// ``combineLatest(with:)``, spelled as the original CombineEx does.
  ///
  /// ```swift
  /// let width = MutableProperty(2)
  /// let height = MutableProperty(3)
  /// let size = width.combineLatest(height)
  /// height.value = 5
  /// print(size.value)  // Prints: (2, 5)
  /// ```
  public func combineLatest<A>(
    _ pA: some PropertyProtocol<A>
  ) -> Property<(Output, A)> {
    combineLatest(with: pA)
  }

  /// Combines this property with 2 others into a property of 3-tuples: the same as
  /// ``combineLatest(with:)`` with as many properties.
  public func combineLatest<A, B>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>
  ) -> Property<(Output, A, B)> {
    combineLatest(with: pA, pB)
  }

  /// Combines this property with 3 others into a property of 4-tuples: the same as
  /// ``combineLatest(with:)`` with as many properties.
  public func combineLatest<A, B, C>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>
  ) -> Property<(Output, A, B, C)> {
    combineLatest(with: pA, pB, pC)
  }

  /// Combines this property with 4 others into a property of 5-tuples: the same as
  /// ``combineLatest(with:)`` with as many properties.
  public func combineLatest<A, B, C, D>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>
  ) -> Property<(Output, A, B, C, D)> {
    combineLatest(with: pA, pB, pC, pD)
  }

  /// Combines this property with 5 others into a property of 6-tuples: the same as
  /// ``combineLatest(with:)`` with as many properties.
  public func combineLatest<A, B, C, D, E>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>
  ) -> Property<(Output, A, B, C, D, E)> {
    combineLatest(with: pA, pB, pC, pD, pE)
  }

  /// Combines this property with 6 others into a property of 7-tuples: the same as
  /// ``combineLatest(with:)`` with as many properties.
  public func combineLatest<A, B, C, D, E, F>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>
  ) -> Property<(Output, A, B, C, D, E, F)> {
    combineLatest(with: pA, pB, pC, pD, pE, pF)
  }

  /// Combines this property with 7 others into a property of 8-tuples: the same as
  /// ``combineLatest(with:)`` with as many properties.
  public func combineLatest<A, B, C, D, E, F, G>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>,
    _ pG: some PropertyProtocol<G>
  ) -> Property<(Output, A, B, C, D, E, F, G)> {
    combineLatest(with: pA, pB, pC, pD, pE, pF, pG)
  }

  /// Combines this property with 8 others into a property of 9-tuples: the same as
  /// ``combineLatest(with:)`` with as many properties.
  public func combineLatest<A, B, C, D, E, F, G, H>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>,
    _ pG: some PropertyProtocol<G>,
    _ pH: some PropertyProtocol<H>
  ) -> Property<(Output, A, B, C, D, E, F, G, H)> {
    combineLatest(with: pA, pB, pC, pD, pE, pF, pG, pH)
  }

  /// Combines this property with 9 others into a property of 10-tuples: the same as
  /// ``combineLatest(with:)`` with as many properties.
  public func combineLatest<A, B, C, D, E, F, G, H, I>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>,
    _ pG: some PropertyProtocol<G>,
    _ pH: some PropertyProtocol<H>,
    _ pI: some PropertyProtocol<I>
  ) -> Property<(Output, A, B, C, D, E, F, G, H, I)> {
    combineLatest(with: pA, pB, pC, pD, pE, pF, pG, pH, pI)
  }

  /// Combines two properties into a property of pairs (the original CombineEx's static
  /// spelling of `pA.combineLatest(with: pB)`).
  ///
  /// The type it is called on is only a namespace, as in the original: the properties may hold
  /// any types. Name its generic argument (Swift 6.3 cannot infer it here; see
  /// Docs/Migrating.md), for example with the first property's type:
  ///
  /// ```swift
  /// let first = MutableProperty("Ada")
  /// let last = MutableProperty("Lovelace")
  /// let name = Property<String>.combineLatest(first, last).map { "\($0) \($1)" }
  /// last.value = "Byron"
  /// print(name.value)  // Prints: Ada Byron
  /// ```
  public static func combineLatest<A, B>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>
  ) -> Property<(A, B)> {
    pA.combineLatest(with: pB)
  }

  /// Combines three properties into a property of 3-tuples (the original CombineEx's
  /// static spelling of `pA.combineLatest(with: ...)`).
  public static func combineLatest<A, B, C>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>
  ) -> Property<(A, B, C)> {
    pA.combineLatest(with: pB, pC)
  }

  /// Combines four properties into a property of 4-tuples (the original CombineEx's
  /// static spelling of `pA.combineLatest(with: ...)`).
  public static func combineLatest<A, B, C, D>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>
  ) -> Property<(A, B, C, D)> {
    pA.combineLatest(with: pB, pC, pD)
  }

  /// Combines five properties into a property of 5-tuples (the original CombineEx's
  /// static spelling of `pA.combineLatest(with: ...)`).
  public static func combineLatest<A, B, C, D, E>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>
  ) -> Property<(A, B, C, D, E)> {
    pA.combineLatest(with: pB, pC, pD, pE)
  }

  /// Combines six properties into a property of 6-tuples (the original CombineEx's
  /// static spelling of `pA.combineLatest(with: ...)`).
  public static func combineLatest<A, B, C, D, E, F>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>
  ) -> Property<(A, B, C, D, E, F)> {
    pA.combineLatest(with: pB, pC, pD, pE, pF)
  }

  /// Combines seven properties into a property of 7-tuples (the original CombineEx's
  /// static spelling of `pA.combineLatest(with: ...)`).
  public static func combineLatest<A, B, C, D, E, F, G>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>,
    _ pG: some PropertyProtocol<G>
  ) -> Property<(A, B, C, D, E, F, G)> {
    pA.combineLatest(with: pB, pC, pD, pE, pF, pG)
  }

  /// Combines eight properties into a property of 8-tuples (the original CombineEx's
  /// static spelling of `pA.combineLatest(with: ...)`).
  public static func combineLatest<A, B, C, D, E, F, G, H>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>,
    _ pG: some PropertyProtocol<G>,
    _ pH: some PropertyProtocol<H>
  ) -> Property<(A, B, C, D, E, F, G, H)> {
    pA.combineLatest(with: pB, pC, pD, pE, pF, pG, pH)
  }

  /// Combines nine properties into a property of 9-tuples (the original CombineEx's
  /// static spelling of `pA.combineLatest(with: ...)`).
  public static func combineLatest<A, B, C, D, E, F, G, H, I>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>,
    _ pG: some PropertyProtocol<G>,
    _ pH: some PropertyProtocol<H>,
    _ pI: some PropertyProtocol<I>
  ) -> Property<(A, B, C, D, E, F, G, H, I)> {
    pA.combineLatest(with: pB, pC, pD, pE, pF, pG, pH, pI)
  }

  /// Combines ten properties into a property of 10-tuples (the original CombineEx's
  /// static spelling of `pA.combineLatest(with: ...)`).
  public static func combineLatest<A, B, C, D, E, F, G, H, I, J>(
    _ pA: some PropertyProtocol<A>,
    _ pB: some PropertyProtocol<B>,
    _ pC: some PropertyProtocol<C>,
    _ pD: some PropertyProtocol<D>,
    _ pE: some PropertyProtocol<E>,
    _ pF: some PropertyProtocol<F>,
    _ pG: some PropertyProtocol<G>,
    _ pH: some PropertyProtocol<H>,
    _ pI: some PropertyProtocol<I>,
    _ pJ: some PropertyProtocol<J>
  ) -> Property<(A, B, C, D, E, F, G, H, I, J)> {
    pA.combineLatest(with: pB, pC, pD, pE, pF, pG, pH, pI, pJ)
  }
}
