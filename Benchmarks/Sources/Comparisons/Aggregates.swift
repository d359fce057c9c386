import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// The other ten-input aggregates (issue 30), held like `g4` to their two-input forms (`g3`,
/// `g2`) and to OpenCombine's emulations; they run after `g4`.
public func aggregateWorkloads() -> [Workload] {
  [
    Workload(
      "g5", "zip of 10 subjects, sink", unit: "element",
      targets: [.withinFactorOf("g3", 3), .fasterThanOpenCombine(1)], note: zipTenNote,
      body: zipTenSubjects),
    Workload(
      "g6", "combineLatest(array:) of 10 subjects, sink", unit: "element",
      targets: [.withinFactorOf("g2", 3), .fasterThanOpenCombine(1)],
      note: combineLatestArrayNote, body: combineLatestArrayOfTen),
  ]
}

/// g5: values sent round-robin to ten subjects, paired by one `zip` of ten (one tuple every
/// ten sends) into a sink that sums each tuple.
func zipTenSubjects(_ bench: Bench) {
  let count = bench.size(200_000)
  let subjects = (0..<10).map { _ in PassthroughSubject<Int, Never>() }
  let total = Total()
  let cancellable = zipOfTen(subjects).sink { total.add($0) }
  bench.measure(units: count) {
    for index in 0..<count { subjects[index % 10].send(index) }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

/// g6: `g4` through `combineLatest(array:)`: values sent round-robin to ten subjects, combined
/// into an array of the latest ten, summed.
func combineLatestArrayOfTen(_ bench: Bench) {
  let count = bench.size(200_000)
  let subjects = (0..<10).map { _ in PassthroughSubject<Int, Never>() }
  let total = Total()
  let cancellable = latestArrayOfTen(subjects).sink { total.add($0) }
  bench.measure(units: count) {
    for index in 0..<count { subjects[index % 10].send(index) }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

#if BENCH_OPENCOMBINE
  /// OpenCombine has no zip of ten: zips of four, four and two, zipped by its own `Zip3`.
  private func zipOfTen(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<Int, Never>
  {
    subjects[0].zip(subjects[1], subjects[2], subjects[3])
      .zip(subjects[4].zip(subjects[5], subjects[6], subjects[7]), subjects[8].zip(subjects[9]))
      .map { zipped in
        let (first, second, third) = zipped
        return first.0 &+ first.1 &+ first.2 &+ first.3 &+ second.0 &+ second.1 &+ second.2
          &+ second.3 &+ third.0 &+ third.1
      }
  }

  /// How g5 runs in this build.
  let zipTenNote: String? = "zip of 10 emulated: zip(zip of 4, zip of 4, zip of 2) (no zip of 10)"

  /// OpenCombine has no combineLatest: `g4`'s emulation (the ten inputs tagged with their index,
  /// merged by `flatMap`, folded by `scan` into the latest value of each, let through once all
  /// ten have one), summed.
  private func latestArrayOfTen(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<
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

  /// How g6 runs in this build.
  let combineLatestArrayNote: String? =
    "combineLatest(array:) of 10 emulated as g4's combineLatest of 10 is (no combineLatest)"
#else
  /// The ten subjects zipped by `zip` with nine others (`Publishers.Aggregate`).
  private func zipOfTen(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<Int, Never>
  {
    subjects[0].zip(
      subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6], subjects[7],
      subjects[8], subjects[9]
    )
    .map { $0.0 &+ $0.1 &+ $0.2 &+ $0.3 &+ $0.4 &+ $0.5 &+ $0.6 &+ $0.7 &+ $0.8 &+ $0.9 }
  }

  /// How g5 runs in this build.
  let zipTenNote: String? = nil

  /// The ten subjects combined by `combineLatest(array:)` (`Publishers.Aggregate` of an array),
  /// summed.
  private func latestArrayOfTen(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<
    Int, Never
  > {
    AnyPublisher<Int, Never>.combineLatest(array: subjects).map { latest in
      latest.reduce(0) { $0 &+ $1 }
    }
  }

  /// How g6 runs in this build.
  let combineLatestArrayNote: String? = nil
#endif
