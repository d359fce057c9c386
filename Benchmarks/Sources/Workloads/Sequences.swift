import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// a: the floor. The same opaque transform and predicate as the stream workloads, in a loop.
func rawLoop(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let (transform, isIncluded) = work()
  var sum = 0
  bench.measure(units: count) {
    for index in 0..<count {
      let value = transform(index)
      if isIncluded(value) { sum &+= value }
    }
  }
  consume(sum)
}

/// b: a synchronous pipeline from a sequence publisher.
func sequenceMapFilterSink(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let (transform, isIncluded) = work()
  var sum = 0
  bench.measure(units: count) {
    _ = (0..<count).publisher.map(transform).filter(isIncluded).sink { sum &+= $0 }
  }
  consume(sum)
}

/// What `(0..<N).publisher.map(f).filter(g)` builds: Combine fuses map and filter on a
/// sequence publisher eagerly, into a new array each.
func sequencePipelineType() -> String {
  let (transform, isIncluded) = work()
  return String(describing: type(of: (0..<1).publisher.map(transform).filter(isIncluded)))
}
