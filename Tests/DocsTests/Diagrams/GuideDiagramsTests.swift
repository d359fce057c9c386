import Foundation
import Testing

/// The marble diagrams of the guides are drawn by running the operators (the catalogs of this
/// folder); a committed diagram that differs from what the code draws fails here.
///
/// A guide marks where a diagram goes with `<!-- marbles: <id> -->`, followed by its ```text
/// block. To write or refresh the blocks after a change (a new entry, a behaviour change, a
/// new marker):
///
///     COMBINEEX_UPDATE_DIAGRAMS=1 swift test --filter GuideDiagrams
@Suite("Operator diagrams in the guides")
struct GuideDiagramsTests {
  static let updateVariable = "COMBINEEX_UPDATE_DIAGRAMS"

  @Test(
    "each committed diagram is what running its operator draws",
    arguments: ["Operators", "Combining", "ErrorHandling", "Schedulers"])
  func guide(_ name: String) throws {
    let diagrams = try #require(OperatorDiagram.catalog[name])
    let path = Self.docs.appending(path: "\(name).md").path
    var guide = try GuideWithDiagrams(path: path)
    let update = ProcessInfo.processInfo.environment[Self.updateVariable] == "1"
    var drawnIDs: Set<String> = []
    let catalogSource = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "\(name)Diagrams.swift"), encoding: .utf8)
    for diagram in diagrams {
      // The code line is the code the entry applies, not a description of it.
      #expect(
        catalogSource.contains("." + diagram.code),
        "the diagram '\(diagram.id)' shows `\(diagram.code)`, which its entry does not apply")
      guard drawnIDs.insert(diagram.id).inserted else {
        Issue.record("Two diagrams of Docs/\(name).md are named '\(diagram.id)'")
        continue
      }
      let drawn = diagram.drawn()
      guard let committed = guide.block(of: diagram.id) else {
        Issue.record(
          """
          Docs/\(name).md has no `<!-- marbles: \(diagram.id) -->`: add the line where the \
          diagram of `\(diagram.code)` belongs, then run \(Self.command)
          """)
        continue
      }
      guard committed.text != drawn else { continue }
      if update {
        guide.replace(diagram.id, with: drawn)
      } else {
        Issue.record(
          """
          Docs/\(name).md:\(committed.line): the diagram '\(diagram.id)' is not what running \
          `\(diagram.code)` draws.
          committed:
          \(committed.text ?? "(no ```text block after the marker)")
          drawn:
          \(drawn)
          If the new drawing is right, run \(Self.command)
          """,
          sourceLocation: SourceLocation(
            fileID: "Docs/\(name).md", filePath: path, line: committed.line, column: 1))
      }
    }
    for id in guide.ids where !drawnIDs.contains(id) {
      Issue.record(
        """
        Docs/\(name).md: `<!-- marbles: \(id) -->` names no diagram of \
        Tests/DocsTests/Diagrams/\(name)Diagrams.swift
        """)
    }
    if update { try guide.write() }
  }

  static let command = "`\(updateVariable)=1 swift test --filter GuideDiagrams` to write it."

  /// The repository's Docs/ folder (this file is Tests/DocsTests/Diagrams/...).
  static let docs = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appending(path: "Docs")
}

/// A guide's lines, with the diagram blocks its markers introduce.
struct GuideWithDiagrams {
  let path: String
  private var lines: [String]

  init(path: String) throws {
    self.path = path
    lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
  }

  /// The ids of the markers, in order.
  var ids: [String] { lines.compactMap(Self.markerID) }

  /// The block after the marker of `id`: its text (nil if the marker has none) and the line of
  /// the marker (1-based).
  func block(of id: String) -> (text: String?, line: Int)? {
    guard let marker = lines.firstIndex(where: { Self.markerID($0) == id }) else { return nil }
    guard let range = blockRange(after: marker) else { return (nil, marker + 1) }
    return (
      lines[(range.lowerBound + 1)..<(range.upperBound - 1)].joined(separator: "\n"), marker + 1
    )
  }

  /// Puts `text` in the block after the marker of `id` (making the block if there is none).
  mutating func replace(_ id: String, with text: String) {
    guard let marker = lines.firstIndex(where: { Self.markerID($0) == id }) else { return }
    let block = ["```text"] + text.components(separatedBy: "\n") + ["```"]
    if let range = blockRange(after: marker) {
      lines.replaceSubrange(range, with: block)
    } else {
      lines.insert(contentsOf: block, at: marker + 1)
    }
  }

  func write() throws {
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// The lines of the ```text block that starts right after the marker line, fences included.
  private func blockRange(after marker: Int) -> Range<Int>? {
    let start = marker + 1
    guard start < lines.count, lines[start] == "```text" else { return nil }
    guard let end = lines[(start + 1)...].firstIndex(of: "```") else { return nil }
    return start..<(end + 1)
  }

  private static func markerID(_ line: String) -> String? {
    let prefix = "<!-- marbles: "
    let suffix = " -->"
    guard line.hasPrefix(prefix), line.hasSuffix(suffix) else { return nil }
    return String(line.dropFirst(prefix.count).dropLast(suffix.count))
  }
}
