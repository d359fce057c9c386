import CombineExCore

extension PropertyProtocol {
  /// Combines this property with another: a property of both latest values.
  ///
  /// ```swift
  /// let width = MutableProperty(2)
  /// let height = MutableProperty(3)
  /// let size = width.combineLatest(with: height)
  /// let cancellable = size.sink { print("\($0)x\($1)") }  // Prints: 2x3
  /// width.value = 4  // Prints: 4x3
  /// height.value = 5  // Prints: 4x5
  /// print(size.value)  // Prints: (4, 5)
  /// ```
  ///
  /// The result is eager, like every composition: it subscribes to each property once, at
  /// once, and publishes the current combination, then a new one for every change of any of
  /// them, in the order the changes were made; its value is the last combination published, and
  /// each subscriber receives it at once, then every later one. It keeps the properties alive,
  /// not the other way round. Delivery is serial: a change made while a combination is being
  /// delivered (from another thread, or from inside the subscriber) is delivered after it. A
  /// subscriber without demand receives the latest combination when it asks again. Subscribers
  /// finish once every property finished (only constant properties finish).
  ///
  /// `combineLatest(with:)` takes 1 to 9 other properties of any types
  /// (`a.combineLatest(with: b, c)` is a property of triples); a collection of properties of
  /// one type combines into a property of arrays with `[a, b, c].combineLatest()`.
  public func combineLatest<B: PropertyProtocol>(with b: B) -> Property<(Output, B.Output)> {
    Property<(Output, B.Output)>.combiningLatest([
      PropertyCombinationSource(self), PropertyCombinationSource(b),
    ]) {
      ($0[0] as! Output, $0[1] as! B.Output)
    }
  }

  /// Combines the latest values of this property and two others into a property of
  /// 3-tuples.
  ///
  /// See ``combineLatest(with:)`` for the semantics.
  public func combineLatest<B: PropertyProtocol, C: PropertyProtocol>(
    with b: B, _ c: C
  ) -> Property<(Output, B.Output, C.Output)> {
    Property<(Output, B.Output, C.Output)>.combiningLatest([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
    ]) { ($0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output) }
  }

  /// Combines the latest values of this property and three others into a property of
  /// 4-tuples.
  ///
  /// See ``combineLatest(with:)`` for the semantics.
  public func combineLatest<B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol>(
    with b: B, _ c: C, _ d: D
  ) -> Property<(Output, B.Output, C.Output, D.Output)> {
    Property<(Output, B.Output, C.Output, D.Output)>.combiningLatest([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
      PropertyCombinationSource(d),
    ]) { ($0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output) }
  }

  /// Combines the latest values of this property and four others into a property of
  /// 5-tuples.
  ///
  /// See ``combineLatest(with:)`` for the semantics.
  public func combineLatest<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E
  ) -> Property<(Output, B.Output, C.Output, D.Output, E.Output)> {
    Property<(Output, B.Output, C.Output, D.Output, E.Output)>.combiningLatest([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
      PropertyCombinationSource(d),
      PropertyCombinationSource(e),
    ]) {
      (
        $0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output,
        $0[4] as! E.Output
      )
    }
  }

  /// Combines the latest values of this property and five others into a property of
  /// 6-tuples.
  ///
  /// See ``combineLatest(with:)`` for the semantics.
  public func combineLatest<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) -> Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output)> {
    Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output)>.combiningLatest([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
      PropertyCombinationSource(d),
      PropertyCombinationSource(e), PropertyCombinationSource(f),
    ]) {
      (
        $0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output,
        $0[4] as! E.Output, $0[5] as! F.Output
      )
    }
  }

  /// Combines the latest values of this property and six others into a property of
  /// 7-tuples.
  ///
  /// See ``combineLatest(with:)`` for the semantics.
  public func combineLatest<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol, G: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
  ) -> Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output)> {
    Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output)>.combiningLatest([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
      PropertyCombinationSource(d),
      PropertyCombinationSource(e), PropertyCombinationSource(f), PropertyCombinationSource(g),
    ]) {
      (
        $0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output,
        $0[4] as! E.Output, $0[5] as! F.Output, $0[6] as! G.Output
      )
    }
  }

  /// Combines the latest values of this property and seven others into a property of
  /// 8-tuples.
  ///
  /// See ``combineLatest(with:)`` for the semantics.
  public func combineLatest<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol, G: PropertyProtocol, H: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
  ) -> Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output)> {
    Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output)>
      .combiningLatest([
        PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
        PropertyCombinationSource(d),
        PropertyCombinationSource(e), PropertyCombinationSource(f), PropertyCombinationSource(g),
        PropertyCombinationSource(h),
      ]) {
        (
          $0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output,
          $0[4] as! E.Output, $0[5] as! F.Output, $0[6] as! G.Output, $0[7] as! H.Output
        )
      }
  }

  /// Combines the latest values of this property and eight others into a property of
  /// 9-tuples.
  ///
  /// See ``combineLatest(with:)`` for the semantics.
  public func combineLatest<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol, G: PropertyProtocol, H: PropertyProtocol, I: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I
  ) -> Property<
    (Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output, I.Output)
  > {
    Property<
      (Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output, I.Output)
    >.combiningLatest([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
      PropertyCombinationSource(d),
      PropertyCombinationSource(e), PropertyCombinationSource(f), PropertyCombinationSource(g),
      PropertyCombinationSource(h),
      PropertyCombinationSource(i),
    ]) {
      (
        $0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output,
        $0[4] as! E.Output, $0[5] as! F.Output, $0[6] as! G.Output, $0[7] as! H.Output,
        $0[8] as! I.Output
      )
    }
  }

  /// Combines the latest values of this property and nine others into a property of
  /// 10-tuples.
  ///
  /// See ``combineLatest(with:)`` for the semantics.
  public func combineLatest<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol, G: PropertyProtocol, H: PropertyProtocol, I: PropertyProtocol,
    J: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I, _ j: J
  ) -> Property<
    (
      Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output, I.Output,
      J.Output
    )
  > {
    Property<
      (
        Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output, I.Output,
        J.Output
      )
    >.combiningLatest([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
      PropertyCombinationSource(d),
      PropertyCombinationSource(e), PropertyCombinationSource(f), PropertyCombinationSource(g),
      PropertyCombinationSource(h),
      PropertyCombinationSource(i), PropertyCombinationSource(j),
    ]) {
      (
        $0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output,
        $0[4] as! E.Output, $0[5] as! F.Output, $0[6] as! G.Output, $0[7] as! H.Output,
        $0[8] as! I.Output, $0[9] as! J.Output
      )
    }
  }
}

extension Collection where Element: PropertyProtocol {
  /// Combines the latest values of these properties into a property of arrays.
  ///
  /// ```swift
  /// let downloads = [MutableProperty(0.0), MutableProperty(0.5)]
  /// let progress = downloads.combineLatest()
  /// let cancellable = progress.sink { print($0) }  // Prints: [0.0, 0.5]
  /// downloads[0].value = 1  // Prints: [1.0, 0.5]
  /// ```
  ///
  /// The arrays follow the collection's order. An empty collection gives a constant empty
  /// array (like `Property(value: [])`). Otherwise like
  /// ``PropertyProtocol/combineLatest(with:)``.
  public func combineLatest() -> Property<[Element.Output]> {
    Property.combiningLatest(map { PropertyCombinationSource(same: $0) }) { $0 }
  }
}
