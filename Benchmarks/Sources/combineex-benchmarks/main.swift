// Runs every workload against CombineEx and against OpenCombine, in this one process, and
// prints them side by side: `swift run -c release --package-path Benchmarks [--help]`.
import BenchmarkKit
import CombineExWorkloads
import OpenCombineWorkloads

runBenchmarks(
  combineEx: CombineExWorkloads.allWorkloads(),
  openCombine: OpenCombineWorkloads.allWorkloads(),
  arguments: Array(CommandLine.arguments.dropFirst()))
