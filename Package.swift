// swift-tools-version: 6.0
import PackageDescription

// CombineEx has no package dependencies: everything below is built from this repository.
// Apple platforms need the releases that ship the Synchronization module (Mutex, Atomic),
// which the core uses for its locks and lock-free fast paths.
let package = Package(
  name: "CombineEx",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "CombineEx", targets: ["CombineEx"]),
    .library(name: "CombineExCore", targets: ["CombineExCore"]),
    .library(name: "CombineExNetworking", targets: ["CombineExNetworking"]),
    .library(name: "CombineExStore", targets: ["CombineExStore"]),
    .library(name: "CombineExTesting", targets: ["CombineExTesting"]),
    .executable(name: "combineex-demo", targets: ["combineex-demo"]),
  ],
  targets: [
    .target(name: "CombineExCore"),
    // URLSession's data task publisher, apart from the core so that the core does not link
    // FoundationNetworking on Linux; CombineEx re-exports it.
    .target(name: "CombineExNetworking", dependencies: ["CombineExCore"]),
    .target(name: "CombineEx", dependencies: ["CombineExCore", "CombineExNetworking"]),
    .target(name: "CombineExStore", dependencies: ["CombineEx"]),
    .target(
      name: "CombineExTesting", dependencies: ["CombineExCore", "CombineEx", "CombineExStore"]),
    .executableTarget(name: "combineex-demo", dependencies: ["CombineEx", "CombineExStore"]),

    // Extracts the Swift code blocks of README.md and Docs/*.md into DocsTests, so that every
    // example in the documentation is compiled (and, where marked, run) by `swift test`.
    .executableTarget(name: "DocSnippetExtractor", path: "Tools/DocSnippetExtractor"),
    .plugin(
      name: "DocSnippets", capability: .buildTool(), dependencies: ["DocSnippetExtractor"],
      path: "Plugins/DocSnippets"),

    .testTarget(name: "CombineExCoreTests", dependencies: ["CombineExCore", "CombineExTesting"]),
    .testTarget(name: "CombineExTests", dependencies: ["CombineEx", "CombineExTesting"]),
    .testTarget(
      name: "CombineExNetworkingTests", dependencies: ["CombineExNetworking", "CombineExTesting"]),
    .testTarget(
      name: "CombineExStoreTests", dependencies: ["CombineExStore", "CombineExTesting"]),
    .testTarget(name: "CombineExTestingTests", dependencies: ["CombineExTesting"]),
    .testTarget(
      name: "ConformanceTests", dependencies: ["CombineEx", "CombineExStore", "CombineExTesting"]),
    .testTarget(
      name: "DocsTests", dependencies: ["CombineEx", "CombineExStore", "CombineExTesting"],
      plugins: ["DocSnippets"]),
  ],
  swiftLanguageModes: [.v6]
)
