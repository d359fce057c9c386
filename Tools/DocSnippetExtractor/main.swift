// Extracts the Swift code blocks of the documentation into test targets, so that every example
// is compiled (and, where it makes a claim, run) by `swift test`:
//
//   DocSnippetExtractor <output.swift> <document.md>...
//       README.md and Docs/*.md, for DocsTests (DocSnippetExtraction/GuideSnippets.swift).
//   DocSnippetExtractor --doc-comments <root> <setups.md> <output.swift>... -- <source.swift>...
//       the `///` comments of Sources/, for DocCommentTests (DocCommentSnippets.swift); the
//       blocks are spread over the outputs (a few files compile in parallel).
//
// Errors are printed as `path:line: error: message` and fail the build. The work is done by
// the DocSnippetExtraction library (Tools/DocSnippetExtraction), which the tests also use.
import DocSnippetExtraction
import Foundation

/// Writes `text` to `path` unless the file already holds it, so that an unchanged example set
/// does not make the test target compile again.
func write(_ text: String, to path: String) throws {
  if let existing = try? String(contentsOfFile: path, encoding: .utf8), existing == text { return }
  try text.write(toFile: path, atomically: true, encoding: .utf8)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  if arguments.first == "--doc-comments" {
    guard arguments.count >= 4, let separator = arguments.firstIndex(of: "--") else {
      throw ExtractionError(
        path: "DocSnippetExtractor", line: 0,
        "usage: --doc-comments <root> <setups.md> <output.swift>... -- <source.swift>...")
    }
    let root = arguments[1]
    let setups = try exampleSetups(in: arguments[2])
    let outputs = Array(arguments[3..<separator])
    let sources = Array(arguments[(separator + 1)...])
    let texts = try docCommentSnippetsSources(
      sources: sources, root: root, setups: setups, fileCount: outputs.count)
    for (text, output) in zip(texts, outputs) { try write(text, to: output) }
  } else {
    guard let output = arguments.first else {
      throw ExtractionError(
        path: "DocSnippetExtractor", line: 0, "usage: <output.swift> <document.md>...")
    }
    try write(guideSnippetsSource(documents: Array(arguments.dropFirst())), to: output)
  }
} catch let error as ExtractionError {
  printError(error)
  exit(1)
}
