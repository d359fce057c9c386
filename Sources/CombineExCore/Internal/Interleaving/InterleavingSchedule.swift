#if DEBUG
  /// The seeded choices of one explored run: which ready thread passes next.
  ///
  /// A SplitMix64 generator, so a seed gives the same choices on every machine. Each seed also
  /// draws how often the running thread keeps the turn when it is still ready (never, half,
  /// four in five or nineteen in twenty of the time): few switches reach the interleavings
  /// where one thread runs far ahead, many switches the fine-grained ones.
  struct InterleavingSchedule {
    private var state: UInt64
    /// Out of 100: the chance that the running thread keeps the turn.
    private var stickiness: UInt64 = 0

    init(seed: UInt64) {
      state = seed
      stickiness = [0, 50, 80, 95][Int(next() % 4)]
    }

    /// The next pseudo-random number (SplitMix64).
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 31)
    }

    /// Picks one of `ready` (thread indices, ascending); `current` is the thread that just
    /// reached a point, if it is one of them.
    mutating func choose(among ready: [Int], current: Int?) -> Int {
      if let current, ready.contains(current), next() % 100 < stickiness { return current }
      return ready[Int(next() % UInt64(ready.count))]
    }
  }
#endif
