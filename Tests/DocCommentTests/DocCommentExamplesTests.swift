import Testing

// The examples of the `///` comments of Sources/ are generated into this target by the
// DocSnippets plugin (Tools/DocSnippetExtractor): every block is compiled, and the blocks that
// make a claim (`// Prints:`, `#expect`) run here. CONTRIBUTING.md, "Examples in doc comments".

@Suite("Doc-comment examples")
struct DocCommentExamplesTests {
  @Test("each example prints what its // Prints comments say", arguments: DocCommentExample.all)
  func example(_ example: DocCommentExample) async {
    await example.run()
  }
}
