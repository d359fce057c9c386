import Foundation
import PackagePlugin

/// Generates the sources of the documentation test targets (see Tools/DocSnippetExtractor):
/// - DocsTests: the Swift code blocks of README.md and Docs/*.md;
/// - DocCommentTests: the Swift code blocks of the `///` comments of every module in Sources/.
@main
struct DocSnippets: BuildToolPlugin {
  /// How many files the doc comments' examples are spread over: a few files compile in
  /// parallel, and one function per example keeps each type-check small.
  static let docCommentFileCount = 4

  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let root = context.package.directoryURL
    let tool = try context.tool(named: "DocSnippetExtractor").url
    if target.name == "DocCommentTests" {
      let sources = swiftFiles(under: root.appending(path: "Sources"))
      let setups = root.appending(path: "Tests/DocCommentTests/Setups.md")
      let outputs = (1...Self.docCommentFileCount).map {
        context.pluginWorkDirectoryURL.appending(path: "DocComments\($0).swift")
      }
      return [
        .buildCommand(
          displayName: "Extracting the examples of doc comments",
          executable: tool,
          arguments: ["--doc-comments", root.path, setups.path] + outputs.map(\.path) + ["--"]
            + sources.map(\.path),
          inputFiles: sources + [setups],
          outputFiles: outputs)
      ]
    }
    let docs = root.appending(path: "Docs")
    let guides = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    let inputs =
      [root.appending(path: "README.md")]
      + guides.filter { $0.hasSuffix(".md") }.sorted().map { docs.appending(path: $0) }
    let output = context.pluginWorkDirectoryURL.appending(path: "DocSnippets.swift")
    return [
      .buildCommand(
        displayName: "Extracting documentation examples",
        executable: tool,
        arguments: [output.path] + inputs.map(\.path),
        inputFiles: inputs,
        outputFiles: [output])
    ]
  }

  /// The Swift files under `directory`, recursively, sorted.
  private func swiftFiles(under directory: URL) -> [URL] {
    let enumerator = FileManager.default.enumerator(
      at: directory, includingPropertiesForKeys: nil)
    var files: [URL] = []
    while let url = enumerator?.nextObject() as? URL {
      if url.pathExtension == "swift" { files.append(url) }
    }
    return files.sorted { $0.path < $1.path }
  }
}
