// swift-tools-version: 6.0
import PackageDescription

// The benchmarks are a separate package, so that the library itself keeps no dependencies.
//
// Every workload is written once, in Sources/Workloads, and compiled twice: as
// CombineExWorkloads (against CombineEx) and as OpenCombineWorkloads (against OpenCombine 0.14.0,
// through the symbolic link Sources/OpenCombineWorkloads -> Workloads and the BENCH_OPENCOMBINE
// condition). The executable runs both in the same process and prints them side by side.
let package = Package(
  name: "CombineExBenchmarks",
  dependencies: [
    .package(name: "CombineEx", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
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
      dependencies: ["BenchmarkKit", .product(name: "CombineEx", package: "CombineEx")],
      path: "Sources/Workloads"),
    .target(
      name: "OpenCombineWorkloads",
      dependencies: [
        "BenchmarkKit", .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ],
      path: "Sources/OpenCombineWorkloads",
      swiftSettings: [.define("BENCH_OPENCOMBINE")]),
    .executableTarget(
      name: "combineex-benchmarks",
      dependencies: ["BenchmarkKit", "CombineExWorkloads", "OpenCombineWorkloads"]),
  ],
  swiftLanguageModes: [.v6]
)
