import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// e1: subscribing to a one-value publisher and cancelling, over and over.
func justMapSinkCancel(_ bench: Bench) {
  let count = bench.size(200_000)
  let total = Total()
  bench.measure(units: count) {
    for index in 0..<count {
      let cancellable = Just(index).map { triple($0) }.sink { total.add($0) }
      cancellable.cancel()
    }
  }
  bench.consume(total.value)
}

/// What `Just(i).map(f)` builds: Combine fuses it into a `Just` of the transformed value.
func justPipelineType() -> String {
  String(describing: type(of: Just(1).map { triple($0) }))
}

/// e2: subscribing to a subject, receiving one value, cancelling, over and over.
func subjectMapSinkSendCancel(_ bench: Bench) {
  let count = bench.size(200_000)
  let subject = PassthroughSubject<Int, Never>()
  let total = Total()
  bench.measure(units: count) {
    for index in 0..<count {
      let cancellable = subject.map { triple($0) }.sink { total.add($0) }
      subject.send(index)
      cancellable.cancel()
    }
  }
  bench.consume(total.value)
}
