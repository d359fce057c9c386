import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// The aggregate operators of the original CombineEx (issue 19), in both builds.
func aggregateWorkloads() -> [Workload] {
  [
    Workload(
      "g4", "combineLatest of 10 subjects, sink", unit: "element",
      targets: [.multipleOf("a"), .withinFactorOf("g2", 3), .fasterThanOpenCombine(1)],
      note: combineLatestTenNote, body: combineLatestTenSubjects)
  ]
}

/// g4: values sent round-robin to ten subjects, combined by one `combineLatest` of ten into a
/// sink that sums each combination.
func combineLatestTenSubjects(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let subjects = (0..<10).map { _ in PassthroughSubject<Int, Never>() }
  let total = Total()
  let cancellable = latestOfTen(subjects).sink { total.add($0) }
  bench.measure(units: count) {
    for index in 0..<count { subjects[index % 10].send(index) }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

#if BENCH_OPENCOMBINE
  /// OpenCombine has no combineLatest: the ten inputs tagged with their index, merged by
  /// `flatMap`, folded by `scan` into the latest value of each, and let through once all ten
  /// have one (g2's emulation, for ten inputs).
  private func latestOfTen(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<
    Int, Never
  > {
    subjects.enumerated().map { index, subject in subject.map { (index, $0) } }.publisher
      .flatMap { $0 }
      .scan([Int?](repeating: nil, count: 10)) { latest, tagged in
        var latest = latest
        latest[tagged.0] = tagged.1
        return latest
      }
      .compactMap { latest in
        latest.reduce(Int?.some(0)) { sum, value in sum.flatMap { s in value.map { s &+ $0 } } }
      }
  }

  /// How g4 runs in this build.
  let combineLatestTenNote: String? =
    "combineLatest of 10 emulated: tagged inputs, flatMap, scan to the latest ten (no combineLatest)"
#else
  /// The ten subjects combined by the static `combineLatest` of ten (`Publishers.Aggregate`).
  private func latestOfTen(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<
    Int, Never
  > {
    AnyPublisher<Int, Never>.combineLatest(
      subjects[0], subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6],
      subjects[7], subjects[8], subjects[9]
    )
    .map { $0.0 &+ $0.1 &+ $0.2 &+ $0.3 &+ $0.4 &+ $0.5 &+ $0.6 &+ $0.7 &+ $0.8 &+ $0.9 }
  }

  /// How g4 runs in this build.
  let combineLatestTenNote: String? = nil
#endif
