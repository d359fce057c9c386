import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// e1: subscribing to a one-value publisher and cancelling, over and over.
func justMapSinkCancel(_ bench: Bench) {
  let count = bench.size(200_000)
  let (transform, _) = work()
  var sum = 0
  bench.measure(units: count) {
    for index in 0..<count {
      let cancellable = Just(index).map(transform).sink { sum &+= $0 }
      cancellable.cancel()
    }
  }
  consume(sum)
}

/// What `Just(i).map(f)` builds: Combine fuses it into a `Just` of the transformed value.
func justPipelineType() -> String {
  let (transform, _) = work()
  return String(describing: type(of: Just(1).map(transform)))
}

/// e2: subscribing to a subject, receiving one value, cancelling, over and over.
func subjectMapSinkSendCancel(_ bench: Bench) {
  let count = bench.size(200_000)
  let (transform, _) = work()
  let subject = PassthroughSubject<Int, Never>()
  var sum = 0
  bench.measure(units: count) {
    for index in 0..<count {
      let cancellable = subject.map(transform).sink { sum &+= $0 }
      subject.send(index)
      cancellable.cancel()
    }
  }
  consume(sum)
}
