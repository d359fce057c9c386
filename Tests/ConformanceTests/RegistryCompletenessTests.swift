import Foundation
import Testing

/// Every public publisher type must be registered with the conformance suite: a new operator
/// without a registration fails here, naming it.
@Suite("conformance registry")
struct RegistryCompletenessTests {
  /// The package's `Sources/` directory, found from this file's path.
  static let sourcesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ConformanceTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .appendingPathComponent("Sources")

  @Test("every public publisher type declared under Sources/ is registered")
  func everyPublisherTypeIsRegistered() throws {
    let declared = try PublisherTypeScanner.scanning(directory: Self.sourcesDirectory)
      .publisherTypes
    let registered = Set(Registry.entries.map(\.typeName))
    let missing = declared.keys.filter { !registered.contains($0) }.sorted()
    #expect(
      missing.isEmpty,
      """
      Public publisher types without a conformance registration: \
      \(missing.map { "\($0) (Sources/\(declared[$0]!))" }.joined(separator: ", ")). \
      Register each in Tests/ConformanceTests/Registry.swift: a .generic entry with cases that \
      build it from the harness's sources, or a .tailored entry giving the reason and the test \
      that checks it.
      """)
  }

  @Test("the registry names only publisher types that exist")
  func registryHasNoStaleEntries() throws {
    let declared = try PublisherTypeScanner.scanning(directory: Self.sourcesDirectory)
      .publisherTypes
    let stale = Registry.entries.map(\.typeName).filter { declared[$0] == nil }
    #expect(stale.isEmpty, "Registered but not declared under Sources/: \(stale)")
  }

  @Test("each type is registered once, with at least one case or a tailored reason")
  func registryEntriesAreWellFormed() {
    let names = Registry.entries.map(\.typeName)
    #expect(Set(names).count == names.count, "Registered twice: \(names.duplicates)")
    for entry in Registry.entries {
      switch entry.coverage {
      case .generic(let cases):
        #expect(!cases.isEmpty, "\(entry.typeName) has no case")
      case .tailored(let reason, let checkedBy):
        #expect(!reason.isEmpty && !checkedBy.isEmpty, "\(entry.typeName) needs a reason")
      }
    }
  }

  @Test("the publishers that keep values have a case that checks they let go of them")
  func storingPublishersAreCheckedForReleases() {
    // Each keeps values it has not delivered (a queue, a buffer, a replay buffer, a latest
    // value): rule 3's stored-values check must run on it (``CaseTraits/storesValues``).
    let storing: Set<String> = [
      "Publishers.Zip", "Publishers.Zip3", "Publishers.Zip4", "Publishers.Aggregate",
      "Publishers.CombineLatest", "Publishers.Merge", "Publishers.Buffer",
      "Publishers.ReceiveOn", "Publishers.Delay", "Publishers.Throttle",
      "Publishers.CollectByTime", "CurrentValueSubject", "ReplaySubject", "Publishers.Custom",
      "DeferredCustom", "Property", "Effect",
    ]
    let checked = Set(
      Registry.entries.filter { entry in
        guard case .generic(let cases) = entry.coverage else { return false }
        return cases.contains { $0.traits.contains(.storesValues) }
      }.map(\.typeName))
    #expect(
      storing.subtracting(checked).isEmpty,
      "No storesValues case: \(storing.subtracting(checked).sorted())")
  }

  @Test("the source scanner finds publisher declarations in every shape, and only those")
  func scannerFindsEveryShape() {
    var scanner = PublisherTypeScanner()
    scanner.scan(
      #"""
      public protocol Publisher<Output, Failure> { }
      public protocol Subject: AnyObject, Publisher { }
      public protocol Refined<Output>: Subject where Failure == Never { }
      extension Publishers {
        /// A doc comment with a brace { and `struct Fake: Publisher`.
        @frozen public struct Direct<Upstream: Publisher>: Publisher where Upstream.Output == Int {
          let text = "a } brace in a string \("and { in" + "an interpolation") and a \" quote"
          let raw = #"raw "string" with \(no interpolation) }"#
          let block = """
            multi-line } string
            """
          struct Inner: Publisher {}  // internal: not listed
        }
        public struct ViaExtension<Upstream> {}
        public final class ViaSubject: @unchecked Sendable, CombineExCore.Subject {}
        public struct NotAPublisher: Sequence {}
      }
      extension Publishers.ViaExtension: Publisher where Upstream: Publisher {}
      public final class ViaRefined<Output>: Refined {}
      extension Result {
        public struct Publisher: CombineExCore.Publisher {}
      }
      func local() { struct Local: Publisher {} }
      /* public struct Commented: Publisher {} /* nested */ */
      public enum Namespace {}
      """#, file: "Sample.swift")
    let found = scanner.publisherTypes.keys.sorted()
    #expect(
      found == [
        "Publishers.Direct", "Publishers.ViaExtension", "Publishers.ViaSubject",
        "Result.Publisher", "ViaRefined",
      ])
  }
}

extension Array where Element: Hashable {
  /// The elements that appear more than once.
  var duplicates: [Element] {
    var seen: Set<Element> = []
    return filter { !seen.insert($0).inserted }
  }
}
