import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// CombineEx's own types, which OpenCombine has no equivalent of: these workloads exist in
/// CombineEx's build only.
func propertyWorkloads() -> [Workload] {
  #if BENCH_OPENCOMBINE
    return []
  #else
    return [
      Workload(
        "j1", "MutableProperty, 10 sinks, set value", unit: "set (x10)",
        targets: [.noAllocations], body: mutablePropertyTenSinks)
    ]
  #endif
}

#if !BENCH_OPENCOMBINE
  /// j1: setting a property with ten subscribers (ten deliveries per set).
  func mutablePropertyTenSinks(_ bench: Bench) {
    let count = bench.size(200_000)
    let property = MutableProperty(0)
    let total = Total()
    let cancellables = (0..<10).map { _ in property.sink { total.add($0) } }
    bench.measure(units: count) {
      for index in 0..<count { property.value = index }
    }
    for cancellable in cancellables { cancellable.cancel() }
    bench.consume(total.value)
  }
#endif
