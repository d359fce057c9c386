// DocCommentTests' sources: every ```swift block of the `///` comments of Sources/, compiled as
// one function each; the blocks that make claims (`// Prints:`, `#expect`) are also listed for
// the tests that run them and compare what they print (Tests/DocCommentTests).
import Foundation

/// A block with what the generated code needs to know about it.
private struct Example {
  let block: DocCommentBlock
  let file: String
  let comments: ExampleComments
  let function: String

  /// Run by the tests: it makes a claim, and does not say it cannot run here.
  var runs: Bool {
    comments.notRunReason == nil
      && (!comments.prints.isEmpty
        || block.code.contains { $0.contains("#expect(") || $0.contains("#require(") })
  }

  /// A place where the tests compare what was printed since the previous one.
  struct Check {
    /// The index of the line of the `// Prints` comment that ends it (`nil` for the end of
    /// a block without one).
    let lineIndex: Int?
    /// Its line in the source file.
    let line: Int
    /// What the comments since the previous check say was printed, joined with ", ".
    let text: String
  }

  /// The checks at the top-level `// Prints` comments, then the end of the block (what is
  /// printed after the last of them; often everything, in a block whose only `// Prints` is
  /// inside a closure or mid-chain).
  var checks: [Check] {
    var checks: [Check] = []
    var pending: [String] = []
    var lastLine = block.fenceLine + block.code.count
    for prints in comments.prints {
      pending += prints.output
      lastLine = block.fenceLine + 1 + prints.lineIndex
      if prints.isCheckpoint {
        checks.append(
          Check(lineIndex: prints.lineIndex, line: lastLine, text: pending.joined(separator: ", ")))
        pending = []
      }
    }
    checks.append(Check(lineIndex: nil, line: lastLine, text: pending.joined(separator: ", ")))
    return checks
  }

  /// Writes to standard output itself (the `print()` operator, the logging middleware), so
  /// that the tests read its standard output.
  var writesToStandardOutput: Bool { usesAny(of: standardOutputWriters) }

  /// Prints from a thread of its own (a global queue's), where the tests cannot tell which
  /// example printed, so that they read its standard output.
  var printsFromOtherThreads: Bool { usesAny(of: otherThreads) }

  /// Uses state the whole process shares (effect ids outside a store live in one table), which
  /// tests running at the same time may use too.
  var usesProcessWideState: Bool { usesAny(of: processWideState) }

  /// Runs in a child process of its own (a Swift Testing exit test), whose standard output and
  /// state are only its own.
  var runsInChildProcess: Bool {
    writesToStandardOutput || printsFromOtherThreads || usesProcessWideState
  }

  /// Why it runs in a child process, for the test's name.
  var childProcessReason: String {
    if writesToStandardOutput { return "it writes to standard output" }
    if printsFromOtherThreads { return "it prints from a thread of its own" }
    return "it uses the process-wide table of effect ids"
  }

  private func usesAny(of names: [String]) -> Bool {
    var lexer = SwiftLineLexer()
    return block.code.contains { line in
      let code = lexer.scan(line).code
      return names.contains { code.contains($0) }
    }
  }
}

/// The APIs that write to standard output themselves.
private let standardOutputWriters = [".print(", "createLoggingMiddleware("]
/// The APIs that call back on threads of their own: global dispatch queues, the demuxer's
/// promise queue.
private let otherThreads = [
  "DispatchQueue.global", ".global(", "DispatchQueue(label", "receiveInBackground",
  "DeferredFutureDemuxer",
]

/// The APIs that use state the whole process shares: an effect's id, outside a store, lives in
/// one table for the process (a guide's example may use the same id at the same time).
private let processWideState = [
  ".cancellable(id:", ".debounce(id:", ".throttle(id:", ".cancel(id:", ".cancel(ids:",
]

/// A setup that blocks name with `// Setup: <name>`, read from the setups document.
package struct ExampleSetup {
  let path: String
  let line: Int
  let code: [String]
}

/// The setups of `path`: each `## name` heading followed by a ```swift block.
package func exampleSetups(in path: String) throws -> [String: ExampleSetup] {
  let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
  var setups: [String: ExampleSetup] = [:]
  var name: String?
  var open: (line: Int, code: [String])?
  for (index, line) in lines.enumerated() {
    if var block = open {
      if line.trimmingCharacters(in: .whitespaces) == "```" {
        guard let current = name else {
          throw ExtractionError(path: path, line: block.line, "a setup without a `## name` heading")
        }
        setups[current] = ExampleSetup(path: path, line: block.line, code: block.code)
        open = nil
        name = nil
      } else {
        block.code.append(line)
        open = block
      }
    } else if line.hasPrefix("## ") {
      name = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
        .trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    } else if line.hasPrefix("```swift") {
      open = (index + 1, [])
    }
  }
  return setups
}

/// The generated files' contents, one per path of `outputs` (blocks spread evenly, a source
/// file's blocks kept together), for the doc comments of `sources` (paths relative to `root`
/// in names and messages).
package func docCommentSnippetsSources(
  sources: [String], root: String, setups: [String: ExampleSetup], fileCount: Int
) throws -> [String] {
  var examples: [Example] = []
  var errors: [ExtractionError] = []
  for path in sources.sorted() {
    let file = relativePath(path, to: root)
    for block in try docCommentBlocks(inFile: path) {
      do {
        let comments = try exampleComments(block.code) { index, message in
          ExtractionError(path: path, line: block.fenceLine + 1 + index, message)
        }
        for setup in comments.setups where setups[setup.name] == nil {
          throw ExtractionError(
            path: path, line: block.fenceLine + 1 + setup.lineIndex,
            "no setup named '\(setup.name)' (the setups are the `## name` sections of "
              + "Tests/DocCommentTests/Setups.md)")
        }
        let function =
          "docExample_\(identifier(file.replacingOccurrences(of: "Sources/", with: "")))_\(block.fenceLine)"
        examples.append(Example(block: block, file: file, comments: comments, function: function))
      } catch let error as ExtractionError {
        errors.append(error)
      }
    }
  }
  if let first = errors.first {
    for error in errors.dropFirst() { printError(error) }
    throw first
  }
  // Spread whole source files over the outputs, the largest first, each to the lightest
  // output so far (by lines of code).
  var parts = Array(repeating: [Example](), count: fileCount)
  var weights = Array(repeating: 0, count: fileCount)
  let byFile = Dictionary(grouping: examples, by: \.file)
  let weight = { (file: String) in byFile[file]!.reduce(0) { $0 + $1.block.code.count + 8 } }
  for file in byFile.keys.sorted(by: { (weight($0), $1) > (weight($1), $0) }) {
    let lightest = weights.indices.min { weights[$0] < weights[$1] }!
    parts[lightest] += byFile[file]!
    weights[lightest] += weight(file)
  }
  return parts.enumerated().map { number, part in
    source(
      of: part.sorted { ($0.file, $0.block.fenceLine) < ($1.file, $1.block.fenceLine) },
      part: number + 1, partCount: fileCount, setups: setups)
  }
}

package func printError(_ error: ExtractionError) {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
}

private func relativePath(_ path: String, to root: String) -> String {
  let prefix = root.hasSuffix("/") ? root : root + "/"
  return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}

private func source(
  of examples: [Example], part: Int, partCount: Int, setups: [String: ExampleSetup]
) -> String {
  var source = """
    // Generated by DocSnippetExtractor from the doc comments of Sources/ (part \(part) of \
    \(partCount)). Do not edit: fix the example in its source file.
    \(generatedImports)

    """
  for example in examples {
    source += function(for: example, setups: setups)
  }
  let listed = examples.filter { $0.runs && !$0.runsInChildProcess }
  source += "\n/// The examples of this part that the tests run.\n"
  source += "func docCommentExamplesPart\(part)() -> [DocCommentExample] {\n"
  source += "  var examples: [DocCommentExample] = []\n"
  for example in listed {
    source += "  examples.append(\(metadata(of: example)))\n"
  }
  source += "  return examples\n}\n"
  for example in examples where example.runs && example.runsInChildProcess {
    source += childProcessTest(for: example)
  }
  if part == 1 {
    source += "\nextension DocCommentExample {\n"
    source += "  /// Every example that the tests run in-process, from every part.\n"
    source += "  static let all: [DocCommentExample] =\n    "
    source += (1...partCount).map { "docCommentExamplesPart\($0)()" }.joined(separator: " + ")
    source += "\n}\n"
  }
  return source
}

private func function(for example: Example, setups: [String: ExampleSetup]) -> String {
  let block = example.block
  var code = block.code.map(droppingImport)
  let checks = example.checks
  if example.runs {
    for (number, check) in checks.dropLast().enumerated() {
      let call = "await docExampleCheckpoint(\(number), \(literal(check.text)))"
      code[check.lineIndex!] = withCheckpoint(code[check.lineIndex!], call: call)
    }
  }
  let setupCode = example.comments.setups.map { setups[$0.name]! }
  // A block that runs is `async`: its checks wait (bounded) for output that comes later, from a
  // task it started. A block that is only compiled is synchronous unless it awaits, as readers
  // would use it (an API with an `async` overload, such as `TypedTestStore.send`, needs `await`
  // in an `async` context).
  let isAsync = example.runs || (setupCode.flatMap(\.code) + block.code).contains(where: usesAwait)
  var text = "\n// \(example.file):\(block.fenceLine), the example of `\(block.symbol)`\n"
  text += "func \(example.function)() \(isAsync ? "async " : "")throws {\n"
  var names: [String] = []
  for setup in setupCode {
    text += "#sourceLocation(file: \(literal(setup.path)), line: \(setup.line + 1))\n"
    text += setup.code.joined(separator: "\n") + "\n"
    names += topLevelNames(setup.code)
  }
  text += "#sourceLocation(file: \(literal(block.path)), line: \(block.fenceLine + 1))\n"
  text += code.joined(separator: "\n")
  text += "\n#sourceLocation()\n"
  if example.runs { text += "  await docExampleEnd(\(literal(checks.last!.text)))\n" }
  names += topLevelNames(block.code)
  var seen: Set<String> = []
  text += keepingAlive(names.filter { seen.insert($0).inserted })
  text += "}\n"
  return text
}

/// Whether a line of code (not its comments or strings) awaits.
private func usesAwait(_ line: String) -> Bool {
  var lexer = SwiftLineLexer()
  let code = lexer.scan(line).code
  return code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.contains("await")
}

/// The line with `call` (which marks the check of its `// Prints` comment) before the comment.
private func withCheckpoint(_ line: String, call: String) -> String {
  var lexer = SwiftLineLexer()
  let scanned = lexer.scan(line)
  guard let offset = scanned.commentOffset else { return line }
  let characters = Array(line)
  let code = String(characters[..<offset])
  let comment = String(characters[offset...])
  if code.trimmingCharacters(in: .whitespaces).isEmpty { return code + call + "  " + comment }
  let trimmed = String(code.reversed().drop { $0 == " " }.reversed())
  return trimmed + "; " + call + "  " + comment
}

/// `DocCommentExample(...)` for an example: where it is, and what each check expects.
private func metadata(of example: Example) -> String {
  let block = example.block
  let checks = example.checks.map { ".init(line: \($0.line), output: \(literal($0.text)))" }
  return """
    DocCommentExample(
        file: \(literal(example.file)), path: \(literal(block.path)), line: \(block.fenceLine),
        symbol: \(literal(block.symbol)),
        checks: [\(checks.dropLast().joined(separator: ", "))],
        end: \(checks.last!),
        body: \(example.function))
    """
}

/// A test that runs an example in a child process (a Swift Testing exit test), where nothing
/// else writes to standard output, and compares what the child wrote.
private func childProcessTest(for example: Example) -> String {
  let name = "\(example.file):\(example.block.fenceLine), the example of `\(example.block.symbol)`"
  let why = example.childProcessReason
  // Output written by the library itself cannot be waited for: such a block is synchronous.
  let waits = !example.writesToStandardOutput
  return """

    @Test(\(literal(name + ", prints what it says (in a child process: \(why))")))
    func \(example.function)_childProcess() async {
      let example = \(metadata(of: example))
      let result = await #expect(processExitsWith: .success, observing: [\\.standardOutputContent]) {
        try await DocCommentExample.runInChildProcess(waitingForLateOutput: \(waits), \(example.function))
      }
      example.check(standardOutput: result?.standardOutputContent ?? [])
    }

    """
}
