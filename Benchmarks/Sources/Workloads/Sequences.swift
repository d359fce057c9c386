import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// a: the floor. The same opaque transform and predicate as the stream workloads, in a loop.
func rawLoop(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let total = Total()
  bench.measure(units: count) {
    for index in 0..<count {
      let value = triple(index)
      if isEven(value) { total.add(value) }
    }
  }
  bench.consume(total.value)
}

/// b1: a synchronous pipeline from a sequence publisher.
func sequenceMapFilterSink(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let total = Total()
  bench.measure(units: count) {
    _ = (0..<count).publisher.map { triple($0) }.filter { isEven($0) }.sink { total.add($0) }
  }
  bench.consume(total.value)
}

/// b2: a sequence publisher straight into a sink: the source's delivery loop alone.
func sequenceSink(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let total = Total()
  bench.measure(units: count) {
    _ = (0..<count).publisher.sink { total.add($0) }
  }
  bench.consume(total.value)
}

/// What `(0..<N).publisher.map(f).filter(g)` builds: Combine fuses map and filter on a
/// sequence publisher eagerly, into a new array each.
func sequencePipelineType() -> String {
  String(describing: type(of: (0..<1).publisher.map { triple($0) }.filter { isEven($0) }))
}
