// Runs every workload against CombineEx and against OpenCombine (and the streams that
// swift-async-algorithms offers instead), in this one process, and prints them side by side:
// `swift run -c release --package-path Benchmarks [--help]`.
import AsyncAlgorithmsWorkloads
import BenchmarkKit
import CombineExComparisons
import CombineExWorkloads
import OpenCombineComparisons
import OpenCombineWorkloads

/// The first table's workloads in report order: issue 30's next to those they relate to, and
/// its floors before the workloads held to them.
func mainTable(
  _ workloads: [Workload], subscribing: [Workload], floors: [Workload], aggregates: [Workload]
) -> [Workload] {
  workloads.inserting(subscribing, after: "e2").inserting(floors, before: "j1")
    .inserting(aggregates, after: "g4")
}

runBenchmarks(
  [
    Comparison(
      library: "OpenCombine", version: "0.14.0", option: "opencombine",
      ours: mainTable(
        CombineExWorkloads.allWorkloads(),
        subscribing: CombineExComparisons.subscribingWorkloads(),
        floors: CombineExComparisons.floorWorkloads(),
        aggregates: CombineExComparisons.aggregateWorkloads()),
      theirs: mainTable(
        OpenCombineWorkloads.allWorkloads(),
        subscribing: OpenCombineComparisons.subscribingWorkloads(),
        floors: OpenCombineComparisons.floorWorkloads(),
        aggregates: OpenCombineComparisons.aggregateWorkloads())),
    Comparison(
      library: "OpenCombine", version: "0.14.0", option: "opencombine",
      caption: "The setup sweep (Docs/Performance.md): every synchronous publisher and operator; "
        + "per unit: subscribe a sink, one value (one per input), completion or cancel.",
      ours: CombineExComparisons.sweepWorkloads(),
      theirs: OpenCombineComparisons.sweepWorkloads()),
    Comparison(
      library: "AsyncAlgorithms", version: "1.1.4 (swift-async-algorithms)",
      option: "asyncalgorithms",
      caption: "What a Linux user would pick instead: the same streams as AsyncSequences, on "
        + "tasks (wall-clock time; reported, not gated).",
      ours: CombineExComparisons.asyncComparisonWorkloads(),
      theirs: AsyncAlgorithmsWorkloads.allWorkloads()),
  ],
  arguments: Array(CommandLine.arguments.dropFirst()))
