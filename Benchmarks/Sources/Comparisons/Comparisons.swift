// This directory is compiled twice, as Sources/Workloads is: as CombineExComparisons, against
// CombineEx, and as OpenCombineComparisons (Sources/OpenCombineComparisons is a symbolic link to
// it), against OpenCombine, with BENCH_OPENCOMBINE defined. It holds issue 30's workloads: the
// setup sweep (Sweep.swift), the floors that CombineEx's own types are held to (the same work
// done by hand, or with Combine's types), and CombineEx's side of the comparison with
// swift-async-algorithms.
//
// They live in a module of their own so that adding them cannot change the code of the gated
// workloads in Sources/Workloads: the optimizer merges identical functions within a module
// (the closure `{ triple($0) }` of a new workload and `c1`'s became one, and `c1` ran 4 more
// instructions per value; `e1`, `e2`, `i4` and `i6` moved too). Add a workload to a module
// whose gated workloads you then re-count, or to a new one.
import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// Subscribing to the single-value chains of issue 30, beside OpenCombine; they run after `e2`.
public func subscribingWorkloads() -> [Workload] {
  [
    Workload(
      "e3", "Future { $0(.success(i)) }.sink, cancel", unit: "subscription",
      targets: [.fasterThanOpenCombine(3)], body: futureSinkCancel),
    Workload(
      "e4", "Deferred{Future}.map.flatMap(.max(1)){Deferred{Future}}", unit: "subscription",
      targets: [.fasterThanOpenCombine(3)], body: deferredFutureChainInCombine),
    Workload(
      "e5", "Just(i).flatMap { Just($0) }.sink, cancel", unit: "subscription",
      targets: [.fasterThanOpenCombine(3)], body: justFlatMapJust),
  ]
}

/// The floors that issue 30 holds CombineEx's own types to, each doing by hand, or with
/// Combine's types, what a `j` workload does; they run before the `j` workloads, whose targets
/// name them.
public func floorWorkloads() -> [Workload] {
  [
    Workload(
      "k3", "store by hand: lock, queue, 3 closures, reducer", unit: "action",
      body: handWrittenStoreDispatch),
    Workload(
      "k5", "CurrentValueSubject.map: send, read the latest", unit: "set",
      body: currentValueSubjectMapRead),
    Workload(
      "k6", "CurrentValueSubject.map, 10 sinks, send", unit: "set (x10)",
      body: currentValueSubjectMapTenSinks),
    Workload(
      "k7", "store by hand: effect kept by id, cancelled", unit: "start+cancel",
      body: handWrittenEffectCycle),
  ]
}
