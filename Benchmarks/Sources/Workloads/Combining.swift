import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// f: flattening: N/1000 outer values, each mapped to a 1000-element sequence publisher.
func flatMapSequences(_ bench: Bench) {
  let inner = 1000
  let outer = max(1, bench.size(1_000_000) / inner)
  let total = Total()
  bench.measure(units: outer * inner) {
    _ = (0..<outer).publisher
      .flatMap { start in (start * inner..<(start + 1) * inner).publisher }
      .sink { total.add($0) }
  }
  bench.consume(total.value)
}

/// g1: values sent round-robin to eight subjects, merged into one sink.
func mergeEightSubjects(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
  let total = Total()
  let cancellable = merged(subjects).sink { total.add($0) }
  bench.measure(units: count) {
    for index in 0..<count { subjects[index & 7].send(index) }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

#if BENCH_OPENCOMBINE
  /// OpenCombine has no merge: the eight subjects, flattened by `flatMap`, which subscribes to
  /// each and forwards all their values as they come, as a merge does.
  private func merged(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<Int, Never> {
    subjects.publisher.flatMap { $0 }
  }

  /// How g1 runs in this build.
  let mergeNote: String? = "merge emulated: subjects.publisher.flatMap { $0 } (no merge)"
#else
  /// The eight subjects merged by `Publishers.Merge8`.
  private func merged(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<Int, Never> {
    subjects[0].merge(
      with: subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6],
      subjects[7])
  }

  /// How g1 runs in this build.
  let mergeNote: String? = nil
#endif

/// g2: values sent alternately to two subjects, combined by `combineLatest` into one sink.
func combineLatestTwoSubjects(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let first = PassthroughSubject<Int, Never>()
  let second = PassthroughSubject<Int, Never>()
  let total = Total()
  let cancellable = latest(first, second).sink { total.add($0.0 &+ $0.1) }
  bench.measure(units: count) {
    for index in 0..<count {
      if index & 1 == 0 { first.send(index) } else { second.send(index) }
    }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

/// g3: values sent alternately to two subjects, paired by `zip` into one sink.
func zipTwoSubjects(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let first = PassthroughSubject<Int, Never>()
  let second = PassthroughSubject<Int, Never>()
  let total = Total()
  let cancellable = first.zip(second).sink { total.add($0.0 &+ $0.1) }
  bench.measure(units: count) {
    for index in 0..<count {
      if index & 1 == 0 { first.send(index) } else { second.send(index) }
    }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

#if BENCH_OPENCOMBINE
  /// OpenCombine has no combineLatest: both inputs tagged, merged by `flatMap`, folded by
  /// `scan` into the latest pair, and let through once both inputs have a value.
  private func latest(
    _ first: PassthroughSubject<Int, Never>, _ second: PassthroughSubject<Int, Never>
  ) -> some Publisher<(Int, Int), Never> {
    [first.map { (0, $0) }, second.map { (1, $0) }].publisher
      .flatMap { $0 }
      .scan((Int?.none, Int?.none)) { pair, tagged in
        tagged.0 == 0 ? (tagged.1, pair.1) : (pair.0, tagged.1)
      }
      .compactMap { pair in pair.0.flatMap { a in pair.1.map { b in (a, b) } } }
  }

  /// How g2 runs in this build.
  let combineLatestNote: String? =
    "combineLatest emulated: tagged inputs, flatMap, scan to the latest pair (no combineLatest)"
#else
  /// The two subjects combined by `Publishers.CombineLatest`.
  private func latest(
    _ first: PassthroughSubject<Int, Never>, _ second: PassthroughSubject<Int, Never>
  ) -> some Publisher<(Int, Int), Never> {
    first.combineLatest(second)
  }

  /// How g2 runs in this build.
  let combineLatestNote: String? = nil
#endif
