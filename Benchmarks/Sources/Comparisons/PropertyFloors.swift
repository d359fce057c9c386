import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// k5: `j5` with Combine's types: a `CurrentValueSubject`, a `map` of it whose sink keeps the
/// latest mapped value, set and read (the floor `j5`, `Property.map`, is held to).
func currentValueSubjectMapRead(_ bench: Bench) {
  let count = bench.size(200_000)
  let source = CurrentValueSubject<Int, Never>(0)
  let latest = Cell()
  let cancellable = source.map { triple($0) }.sink { latest.value = $0 }
  let total = Total()
  bench.measure(units: count) {
    for index in 0..<count {
      source.send(index)
      total.add(latest.value)
    }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

/// k6: `j6` with Combine's types: ten sinks on a `map` of a `CurrentValueSubject` (each
/// subscription runs the transform, where `Property.map` runs it once for all ten).
func currentValueSubjectMapTenSinks(_ bench: Bench) {
  let count = bench.size(200_000)
  let source = CurrentValueSubject<Int, Never>(0)
  let total = Total()
  let cancellables = (0..<10).map { _ in source.map { $0 &* 2 }.sink { total.add($0) } }
  bench.measure(units: count) {
    for index in 0..<count { source.send(index) }
  }
  for cancellable in cancellables { cancellable.cancel() }
  bench.consume(total.value)
}
