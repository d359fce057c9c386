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
