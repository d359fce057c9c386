import Foundation
import PackagePlugin

/// Generates DocsTests' sources from the Swift code blocks of README.md and Docs/*.md (see
/// Tools/DocSnippetExtractor), so that documentation examples are compiled with the tests.
@main
struct DocSnippets: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let root = context.package.directoryURL
    let docs = root.appending(path: "Docs")
    let guides = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    let inputs =
      [root.appending(path: "README.md")]
      + guides.filter { $0.hasSuffix(".md") }.sorted().map { docs.appending(path: $0) }
    let output = context.pluginWorkDirectoryURL.appending(path: "DocSnippets.swift")
    return [
      .buildCommand(
        displayName: "Extracting documentation examples",
        executable: try context.tool(named: "DocSnippetExtractor").url,
        arguments: [output.path] + inputs.map(\.path),
        inputFiles: inputs,
        outputFiles: [output])
    ]
  }
}
