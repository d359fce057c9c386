import CombineExCore

extension PropertyProtocol {
  /// Zips this property with another: a property whose values pair the n-th values of both.
  ///
  /// ```swift
  /// let requests = MutableProperty(0)
  /// let responses = MutableProperty("-")
  /// let exchanges = requests.zip(with: responses)
  /// let cancellable = exchanges.sink { print($0) }  // Prints: (0, "-")
  /// requests.value = 1
  /// requests.value = 2  // (nothing yet: both wait for their responses)
  /// responses.value = "one"  // Prints: (1, "one")
  /// responses.value = "two"  // Prints: (2, "two")
  /// ```
  ///
  /// The first pair is made of both current values. After that, a pair is published when both
  /// properties have published a value not yet paired; values wait (in memory, unbounded) for
  /// their partners. The result's value is the last pair published.
  ///
  /// The result is **eager**: pairing depends on history, so it subscribes to the properties
  /// once, at once, and every subscriber shares that one sequence of pairs (a subscriber that
  /// comes later receives the last pair, then the next ones). It stays subscribed while the
  /// returned property or any of its subscribers is alive. It finishes once a property that
  /// finished has no value left to pair.
  ///
  /// `zip(with:)` takes 1 to 9 other properties of any types (`a.zip(with: b, c)` is a property
  /// of triples); a collection of properties of one type zips into a property of arrays with
  /// `[a, b, c].zip()`.
  public func zip<B: PropertyProtocol>(with b: B) -> Property<(Output, B.Output)> {
    Property<(Output, B.Output)>.zipping([
      PropertyCombinationSource(self), PropertyCombinationSource(b),
    ]) {
      ($0[0] as! Output, $0[1] as! B.Output)
    }
  }

  /// Zips this property with two others: a property of 3-tuples of their n-th
  /// values.
  ///
  /// See ``zip(with:)`` for the semantics.
  public func zip<B: PropertyProtocol, C: PropertyProtocol>(
    with b: B, _ c: C
  ) -> Property<(Output, B.Output, C.Output)> {
    Property<(Output, B.Output, C.Output)>.zipping([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
    ]) { ($0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output) }
  }

  /// Zips this property with three others: a property of 4-tuples of their n-th
  /// values.
  ///
  /// See ``zip(with:)`` for the semantics.
  public func zip<B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol>(
    with b: B, _ c: C, _ d: D
  ) -> Property<(Output, B.Output, C.Output, D.Output)> {
    Property<(Output, B.Output, C.Output, D.Output)>.zipping([
      PropertyCombinationSource(self), PropertyCombinationSource(b), PropertyCombinationSource(c),
      PropertyCombinationSource(d),
    ]) { ($0[0] as! Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output) }
  }

  /// Zips this property with four others: a property of 5-tuples of their n-th
  /// values.
  ///
  /// See ``zip(with:)`` for the semantics.
  public func zip<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E
  ) -> Property<(Output, B.Output, C.Output, D.Output, E.Output)> {
    Property<(Output, B.Output, C.Output, D.Output, E.Output)>.zipping([
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

  /// Zips this property with five others: a property of 6-tuples of their n-th
  /// values.
  ///
  /// See ``zip(with:)`` for the semantics.
  public func zip<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) -> Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output)> {
    Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output)>.zipping([
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

  /// Zips this property with six others: a property of 7-tuples of their n-th
  /// values.
  ///
  /// See ``zip(with:)`` for the semantics.
  public func zip<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol, G: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
  ) -> Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output)> {
    Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output)>.zipping([
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

  /// Zips this property with seven others: a property of 8-tuples of their n-th
  /// values.
  ///
  /// See ``zip(with:)`` for the semantics.
  public func zip<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol, G: PropertyProtocol, H: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
  ) -> Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output)> {
    Property<(Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output)>
      .zipping([
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

  /// Zips this property with eight others: a property of 9-tuples of their n-th
  /// values.
  ///
  /// See ``zip(with:)`` for the semantics.
  public func zip<
    B: PropertyProtocol, C: PropertyProtocol, D: PropertyProtocol, E: PropertyProtocol,
    F: PropertyProtocol, G: PropertyProtocol, H: PropertyProtocol, I: PropertyProtocol
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I
  ) -> Property<
    (Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output, I.Output)
  > {
    Property<
      (Output, B.Output, C.Output, D.Output, E.Output, F.Output, G.Output, H.Output, I.Output)
    >.zipping([
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

  /// Zips this property with nine others: a property of 10-tuples of their n-th
  /// values.
  ///
  /// See ``zip(with:)`` for the semantics.
  public func zip<
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
    >.zipping([
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
  /// Zips these properties: a property of arrays of their n-th values.
  ///
  /// ```swift
  /// let players = [MutableProperty("rock"), MutableProperty("paper")]
  /// let rounds = players.zip()
  /// let cancellable = rounds.sink { print($0) }  // Prints: ["rock", "paper"]
  /// players[1].value = "scissors"  // (nothing: waits for the first player)
  /// players[0].value = "rock"  // Prints: ["rock", "scissors"]
  /// ```
  ///
  /// The arrays follow the collection's order. An empty collection gives a constant empty
  /// array. Otherwise like ``PropertyProtocol/zip(with:)``.
  public func zip() -> Property<[Element.Output]> {
    Property.zipping(map { PropertyCombinationSource(same: $0) }) { $0 }
  }
}
