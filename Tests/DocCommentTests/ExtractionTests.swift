import DocSnippetExtraction
import Testing

/// The convention of doc-comment examples, as DocSnippetExtractor reads it (CONTRIBUTING.md,
/// "Examples in doc comments"): what a `// Prints` comment says, where the tests check it, and
/// the errors that stop the build.
@Suite("Doc-comment examples: the extractor")
struct ExtractionTests {
  private func comments(_ code: [String]) throws -> ExampleComments {
    try exampleComments(code) { index, message in
      ExtractionError(path: "Example.swift", line: index + 1, message)
    }
  }

  private func checkpoints(_ code: [String]) throws -> [Int] {
    try comments(code).prints.filter(\.isCheckpoint).map(\.lineIndex)
  }

  @Test("a // Prints at the end of a top-level statement, or alone after one, is a check")
  func statementEndsAreChecks() throws {
    let code = [
      "let subject = PassthroughSubject<Int, Never>()",
      "let cancellable = subject.sink { print($0) }",
      "subject.send(1)  // Prints: 1",
      "subject.send(2)",
      "// Prints: 2",
    ]
    #expect(try checkpoints(code) == [2, 4])
    #expect(try comments(code).prints.map(\.output) == [["1"], ["2"]])
  }

  @Test(
    "inside a closure, mid-chain, or before a continuation line, a // Prints adds to the next check"
  )
  func closuresAndChainsAreNotChecks() throws {
    #expect(
      try checkpoints(["let c = p.sink { value in", "  print(value)  // Prints: 1", "}"]) == [])
    #expect(
      try checkpoints(["let c = p", "  .map { $0 }  // Prints: 1", "  .sink { _ in }"]) == [])
    #expect(try checkpoints(["let x = a  // Prints: 1", "  + b"]) == [])
    #expect(try checkpoints(["if ok { f() }  // Prints: 1", "else { g() }"]) == [])
  }

  @Test("// Prints comments on consecutive lines read as one check, at the last of them")
  func consecutiveCommentsMerge() throws {
    let code = ["let c = effect.sink { print($0) }", "// Prints: 1", "// Prints: 2"]
    #expect(try checkpoints(code) == [2])
  }

  @Test("a remark after ' — ' is not compared; 'Prints nothing' expects nothing")
  func remarksAndNothing() throws {
    let prints = try comments([
      "f()  // Prints: 1, 2 — the subscriber asked for two", "g()  // Prints nothing: gone",
      "h()  // Prints nothing — gone",
    ]).prints
    #expect(prints.map(\.output) == [["1, 2"], [], []])
  }

  @Test("the multi-line form takes one printed line per indented comment line")
  func multiLineForm() throws {
    let prints = try comments([
      "let c = p.print().sink { _ in }", "// Prints:", "//   receive value: (1)",
      "//   receive finished", "// not output",
    ]).prints
    #expect(prints.map(\.output) == [["receive value: (1)", "receive finished"]])
  }

  @Test("a // Prints in a string literal is not a comment")
  func stringsAreNotComments() throws {
    #expect(try comments(["print(\"// Prints: 1\")"]).prints.isEmpty)
    #expect(try comments(["let s = \"a\\(f(\"x\"))\"  // Prints: 1"]).prints.count == 1)
  }

  @Test("an unknown form stops the build with its line and the forms to use")
  func unknownFormsAreErrors() throws {
    let error = try #require(throws: ExtractionError.self) {
      try comments(["f()", "g()  // Prints (soon): 4"])
    }
    #expect(error.line == 2)
    #expect(error.message.contains("unknown form `// Prints (soon): 4`"))
    #expect(error.message.contains("// Not run by the doc tests: <reason>"))
    #expect(throws: ExtractionError.self) { try comments(["// Prints:"]) }
    #expect(throws: ExtractionError.self) { try comments(["// Not run by the doc tests:"]) }
  }

  @Test("markers: a reason not to run, a setup by name")
  func markers() throws {
    let marked = try comments([
      "// Setup: counter-store — the store of TestStore's example",
      "// Not run by the doc tests: it needs the main queue.", "store.send(.increment)",
    ])
    #expect(marked.setups.map(\.name) == ["counter-store"])
    #expect(marked.notRunReason == "it needs the main queue.")
  }

  @Test("blocks carry their fence line and the symbol their comment documents")
  func blocksAndSymbols() throws {
    let source = """
      extension Publishers {
        /// A publisher.
        ///
        /// ```swift
        /// let a = 1
        /// ```
        public struct Thing<Upstream>: Publisher {
          /// Makes one.
          ///
          /// ```swift
          /// let b = 2
          /// ```
          @inlinable
          public init(upstream: Upstream, count: Int) {}
        }
      }
      extension Publisher {
        /// Flat-maps.
        ///
        /// ```swift
        /// let c = 3
        /// ```
        public func flatMap<T, P: Publisher>(
          maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
        ) -> Publishers.FlatMap<P, Self> {}
      }
      """
    let blocks = try docCommentBlocks(inText: source, path: "Thing.swift")
    #expect(blocks.map(\.fenceLine) == [4, 10, 20])
    #expect(
      blocks.map(\.symbol) == [
        "Publishers.Thing", "Publishers.Thing.init(upstream:count:)",
        "Publisher.flatMap(maxPublishers:_:)",
      ])
    #expect(blocks.map(\.code) == [["let a = 1"], ["let b = 2"], ["let c = 3"]])
  }

  @Test("a block never closed, or with an info string, stops the build at its fence")
  func malformedBlocksAreErrors() throws {
    let unclosed = try #require(throws: ExtractionError.self) {
      try docCommentBlocks(inText: "/// ```swift\n/// let a = 1\nlet b = 2", path: "A.swift")
    }
    #expect(unclosed.line == 1 && unclosed.message.contains("never closed"))
    let tagged = try #require(throws: ExtractionError.self) {
      try docCommentBlocks(inText: "/// ```swift run\n/// ```\nlet b = 2", path: "A.swift")
    }
    #expect(tagged.line == 1 && tagged.message.contains("plain ```swift"))
  }
}
