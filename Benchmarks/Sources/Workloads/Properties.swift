import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
  import CombineExStore
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
        targets: [.noAllocations, .withinFactorOf("d", 1.1)], body: mutablePropertyTenSinks),
      Workload(
        "j2", "Action: apply, run one value, complete", unit: "run",
        targets: [.withinFactorOf("a", 490), .withinFactorOf("e1", 3)], body: actionApplyCycle),
      Workload(
        "j3", "Store.dispatch, 3 middlewares, reducer", unit: "action",
        targets: [.withinFactorOf("a", 150), .withinFactorOf("k3", 2)], body: storeDispatch),
      Workload(
        "j4", "DeferredFuture.map.flatMap.sink: subscribe to value", unit: "subscription",
        targets: [.withinFactorOf("e4", 1.5), .withinFactorOf("e1", 5)], body: deferredFutureChain),
      Workload(
        "j5", "Property.map: set the source, read the mapped value", unit: "set",
        targets: [.withinFactorOf("k5", 1.5)], body: propertyMapRead),
      Workload(
        "j6", "Property.map, 10 sinks, set source", unit: "set (x10)",
        targets: [.withinFactorOf("k6", 1.5)], body: mappedPropertyTenSinks),
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

#if !BENCH_OPENCOMBINE
  /// j6: setting the source of a mapped property that has ten subscribers (one transform, when
  /// the composition caches it, and ten deliveries per set).
  func mappedPropertyTenSinks(_ bench: Bench) {
    let count = bench.size(200_000)
    let source = MutableProperty(0)
    let doubled = source.map { $0 &* 2 }
    let total = Total()
    let cancellables = (0..<10).map { _ in doubled.sink { total.add($0) } }
    bench.measure(units: count) {
      for index in 0..<count { source.value = index }
    }
    for cancellable in cancellables { cancellable.cancel() }
    bench.consume(total.value)
  }
#endif

#if !BENCH_OPENCOMBINE
  /// j2: one run of an action whose work publishes one value and finishes, applied and
  /// completed in turn (the gate opens again at each completion).
  func actionApplyCycle(_ bench: Bench) {
    let count = bench.size(100_000)
    let action = Action<Int, Int, Never> { input in .just(input) }
    let total = Total()
    bench.measure(units: count) {
      for index in 0..<count {
        _ = action.apply(index).sink(receiveCompletion: { _ in }, receiveValue: { total.add($0) })
      }
    }
    bench.consume(total.value)
  }

  /// The action j3 dispatches.
  struct Increment: StoreAction {
    let amount: Int
  }

  /// j3: actions dispatched to a store whose three middlewares pass each one on, and whose
  /// reducer adds it to the state.
  func storeDispatch(_ bench: Bench) {
    let count = bench.size(200_000)
    let passOn: Middleware<Int> = { _, _, next in { action in next(action) } }
    let store = Store<Int>(
      reducer: { state, action in
        if let increment = action as? Increment { state &+= increment.amount }
      },
      state: 0, middlewares: [passOn, passOn, passOn])
    bench.measure(units: count) {
      for index in 0..<count { store.dispatch(Increment(amount: index)) }
    }
    bench.consume(store.state)
  }
#endif

#if !BENCH_OPENCOMBINE
  /// j4: subscribing to a chain of futures (`map`, then `flatMap` into another) until its
  /// value arrives.
  func deferredFutureChain(_ bench: Bench) {
    let count = bench.size(100_000)
    let total = Total()
    let chain = DeferredFuture<Int, Never> { promise in promise(.success(1)) }
      .map { triple($0) }
      .flatMap { value in DeferredFuture<Int, Never> { promise in promise(.success(value)) } }
    bench.measure(units: count) {
      for _ in 0..<count {
        let cancellable = chain.sink { total.add($0) }
        cancellable.cancel()
      }
    }
    bench.consume(total.value)
  }

  /// j5: setting a property and reading a `map` of it (the mapped property follows at once).
  func propertyMapRead(_ bench: Bench) {
    let count = bench.size(200_000)
    let source = MutableProperty(0)
    let mapped = source.map { triple($0) }
    let total = Total()
    bench.measure(units: count) {
      for index in 0..<count {
        source.value = index
        total.add(mapped.value)
      }
    }
    bench.consume(total.value)
  }
#endif
