// swift-tools-version: 6.0
import PackageDescription

// The benchmarks are a separate package, so that the library itself keeps no dependencies.
//
// Every workload is written once, in Sources/Workloads, and compiled twice: as
// CombineExWorkloads (against CombineEx) and as OpenCombineWorkloads (against OpenCombine 0.14.0,
// through the symbolic link Sources/OpenCombineWorkloads -> Workloads and the BENCH_OPENCOMBINE
// condition). The executable runs both in the same process and prints them side by side.
// Issue 30's workloads (the setup sweep, the floors of CombineEx's own types) are compiled twice
// in the same way, from Sources/Comparisons, as CombineExComparisons and OpenCombineComparisons:
// a module of their own, so that adding them leaves the gated workloads' code as it was.
//
// swift-async-algorithms is what a Swift developer on Linux reaches for without Combine: the
// AsyncAlgorithmsWorkloads target runs the same streams as AsyncSequences, beside CombineEx's
// (a third table of the report; reported, not gated).
let package = Package(
  name: "CombineExBenchmarks",
  dependencies: [
    .package(name: "CombineEx", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
  ],
  targets: [
    // Counts heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign)
    // by defining those functions in the executable and forwarding them to glibc; reads
    // mallinfo2() for the bytes in use; reads the monotonic clock.
    .target(name: "MallocCounter"),
    // The harness: the workload description, measuring, statistics, the report.
    .target(name: "BenchmarkKit", dependencies: ["MallocCounter"]),
    .target(
      name: "CombineExWorkloads",
      // "CombineEx" names the root package's product; the root package's identity is its
      // directory's name, which differs between clones, so it is not spelled out.
      dependencies: [
        "BenchmarkKit", .product(name: "CombineEx", package: "CombineEx"),
        .product(name: "CombineExStore", package: "CombineEx"),
      ],
      path: "Sources/Workloads"),
    .target(
      name: "OpenCombineWorkloads",
      dependencies: [
        "BenchmarkKit", .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ],
      path: "Sources/OpenCombineWorkloads",
      swiftSettings: [.define("BENCH_OPENCOMBINE")]),
    .target(
      name: "CombineExComparisons",
      dependencies: [
        "BenchmarkKit", .product(name: "CombineEx", package: "CombineEx"),
        .product(name: "CombineExStore", package: "CombineEx"),
      ],
      path: "Sources/Comparisons"),
    .target(
      name: "OpenCombineComparisons",
      dependencies: [
        "BenchmarkKit", .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ],
      path: "Sources/OpenCombineComparisons",
      swiftSettings: [.define("BENCH_OPENCOMBINE")]),
    .target(
      name: "AsyncAlgorithmsWorkloads",
      dependencies: [
        "BenchmarkKit", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]),
    .executableTarget(
      name: "combineex-benchmarks",
      dependencies: [
        "BenchmarkKit", "CombineExWorkloads", "OpenCombineWorkloads", "CombineExComparisons",
        "OpenCombineComparisons", "AsyncAlgorithmsWorkloads",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
