import Foundation
import Testing

/// The benchmarks' setup sweep (Benchmarks/Sources/Comparisons/Sweep.swift, issue 30) measures
/// subscribing to every public publisher type: each registry type must be swept, or exempted
/// with a reason, so that a new publisher cannot be left out of the measurements. The sweep is
/// read as text, as `RegistryCompletenessTests` reads `Sources/`.
@Suite("benchmark setup sweep")
struct BenchmarkSweepTests {
  /// The directory of the sweep's source, found from this file's path.
  static let sweepDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ConformanceTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .appendingPathComponent("Benchmarks/Sources/Comparisons")

  @Test("every type of the conformance registry is swept, or exempted with a reason")
  func everyRegistryTypeIsSwept() throws {
    let sweep = try SweepList.reading(directory: Self.sweepDirectory)
    let covered = Set(sweep.swept + sweep.exemptions.map(\.type))
    let missing = Registry.entries.map(\.typeName).filter { !covered.contains($0) }
    #expect(
      missing.isEmpty,
      """
      Publisher types missing from the benchmarks' setup sweep: \
      \(missing.joined(separator: ", ")). Add a `swept("Type", "pipeline") { ... }` entry to \
      Benchmarks/Sources/Comparisons/Sweep.swift (subscribe, one value, completion or cancel), or, \
      for a type that cannot be swept synchronously, an `exempt("Type", reason: "...")` line in \
      its `sweepExemptions`.
      """)
  }

  @Test("the sweep names only registry types, each once, and every exemption says why")
  func sweepHasNoStaleOrDuplicateEntries() throws {
    let sweep = try SweepList.reading(directory: Self.sweepDirectory)
    let registered = Set(Registry.entries.map(\.typeName))
    let named = sweep.swept + sweep.exemptions.map(\.type)
    let stale = named.filter { !registered.contains($0) }
    #expect(stale.isEmpty, "Swept or exempted, but not in the conformance registry: \(stale)")
    #expect(named.duplicates.isEmpty, "Swept or exempted twice: \(named.duplicates)")
    let unexplained = sweep.exemptions.filter {
      $0.reason.trimmingCharacters(in: .whitespaces).isEmpty
    }
    #expect(unexplained.isEmpty, "Exempted without a reason: \(unexplained.map(\.type))")
  }

  @Test("the reader finds entries and exemptions in every shape, and skips comments")
  func readerFindsEveryShape() {
    let sweep = SweepList(
      reading: #"""
        // swept("Commented", "a comment is no entry") { Just($0) },
        func swept<P: Publisher>(_ type: String, _ title: String) -> Workload {}
        let entries = [
          swept("Just", "Just(i)") { Just($0) },
          swept(
            "Publishers.Map", ".map { f }") { OneValue($0).map { triple($0) } },
          swept("PassthroughSubject", "subject, send(i)", { _ in subject }) { $0.send($1) },
          sweptConnectable("Publishers.Multicast", ".multicast(subject:)") { ... },
        ]
        let sweepExemptions = [
          exempt("Timer.TimerPublisher", reason: "real time"),
          exempt(
            "MarblePublisher",
            reason: "a test tool "
              + "played by a TestScheduler"),
          exempt("URLSession.DataTaskPublisher", reason: ""),
        ]
        """#)
    #expect(
      sweep.swept == ["Just", "Publishers.Map", "PassthroughSubject", "Publishers.Multicast"])
    #expect(
      sweep.exemptions.map(\.type) == [
        "Timer.TimerPublisher", "MarblePublisher", "URLSession.DataTaskPublisher",
      ])
    #expect(sweep.exemptions.map(\.reason) == ["real time", "a test tool ", ""])
  }
}

/// The types the sweep's source names: the first argument of each `swept(` or
/// `sweptConnectable(` call, and each `exempt(` with the first string of its reason.
struct SweepList {
  struct Exemption {
    let type: String
    let reason: String
  }

  var swept: [String] = []
  var exemptions: [Exemption] = []

  /// Reads every Swift file of `directory`.
  static func reading(directory: URL) throws -> SweepList {
    let files = try FileManager.default.contentsOfDirectory(
      at: directory, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "swift" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
    #expect(!files.isEmpty, "no benchmark workloads found in \(directory.path)")
    return SweepList(
      reading: try files.map { try String(contentsOf: $0, encoding: .utf8) }
        .joined(separator: "\n"))
  }

  /// Reads `source`, skipping line comments.
  init(reading source: String) {
    let code = source.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
      .joined(separator: "\n")
    swept = code.matches(of: #/\bswept(?:Connectable)?\(\s*"([^"]+)"/#).map { String($0.1) }
    exemptions = code.matches(of: #/\bexempt\(\s*"([^"]+)",\s*reason:\s*"([^"]*)"/#).map {
      Exemption(type: String($0.1), reason: String($0.2))
    }
  }
}
