import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// c1: values sent to a subject, through map and filter, to a sink.
func subjectMapFilterSink(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let subject = PassthroughSubject<Int, Never>()
  let total = Total()
  let cancellable = subject.map { triple($0) }.filter { isEven($0) }.sink { total.add($0) }
  bench.measure(units: count) {
    for index in 0..<count { subject.send(index) }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

/// c2: values sent to a subject with one sink.
func subjectSink(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let subject = PassthroughSubject<Int, Never>()
  let total = Total()
  let cancellable = subject.sink { total.add($0) }
  bench.measure(units: count) {
    for index in 0..<count { subject.send(index) }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

/// d: values sent to a current-value subject with ten sinks (ten deliveries per send).
func currentValueSubjectTenSinks(_ bench: Bench) {
  let count = bench.size(200_000)
  let subject = CurrentValueSubject<Int, Never>(0)
  let total = Total()
  let cancellables = (0..<10).map { _ in subject.sink { total.add($0) } }
  bench.measure(units: count) {
    for index in 0..<count { subject.send(index) }
  }
  for cancellable in cancellables { cancellable.cancel() }
  bench.consume(total.value)
}
