import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// e3: subscribing to a `Future` fulfilled in its closure, over and over (issue 30's
/// `Future { $0(.success(i)) }.sink`).
func futureSinkCancel(_ bench: Bench) {
  let count = bench.size(20_000)
  let total = Total()
  bench.measure(units: count) {
    for index in 0..<count {
      let cancellable = Future<Int, Never> { $0(.success(index)) }.sink { total.add($0) }
      cancellable.cancel()
    }
  }
  bench.consume(total.value)
}

/// e4: `j4`'s chain in Combine's terms: a deferred future, mapped, then flat-mapped (one at a
/// time) into another deferred future; subscribed until its value arrives, over and over. The
/// floor `j4` (`DeferredFuture`) is held to.
func deferredFutureChainInCombine(_ bench: Bench) {
  let count = bench.size(20_000)
  let total = Total()
  let chain = Deferred { Future<Int, Never> { $0(.success(1)) } }
    .map { triple($0) }
    .flatMap(maxPublishers: .max(1)) { value in
      Deferred { Future<Int, Never> { $0(.success(value)) } }
    }
  bench.measure(units: count) {
    for _ in 0..<count {
      let cancellable = chain.sink { total.add($0) }
      cancellable.cancel()
    }
  }
  bench.consume(total.value)
}

/// e5: subscribing to `Just(i).flatMap { Just($0) }`, over and over.
func justFlatMapJust(_ bench: Bench) {
  let count = bench.size(50_000)
  let total = Total()
  bench.measure(units: count) {
    for index in 0..<count {
      let cancellable = Just(index).flatMap { Just($0) }.sink { total.add($0) }
      cancellable.cancel()
    }
  }
  bench.consume(total.value)
}
