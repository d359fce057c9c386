import CombineExTesting
import Testing

@Suite("Marble diagram grammar")
struct MarbleDiagramTests {
  @Test("dashes are ticks, values and completions take one tick each")
  func ticks() throws {
    let diagram = try MarbleDiagram("-a--b-|")
    #expect(
      diagram.frames == [
        .init(tick: 1, event: .value("a")), .init(tick: 4, event: .value("b")),
        .init(tick: 6, event: .finished),
      ])
    #expect(diagram.duration == 7)
  }

  @Test("braces name values longer than one character")
  func bracedNames() throws {
    let diagram = try MarbleDiagram("{42}-{hello}#")
    #expect(
      diagram.frames == [
        .init(tick: 0, event: .value("42")), .init(tick: 2, event: .value("hello")),
        .init(tick: 3, event: .failure),
      ])
  }

  @Test("a group puts several events in one tick")
  func groups() throws {
    let diagram = try MarbleDiagram("-(ab)-(c|)")
    #expect(diagram.frames.map(\.tick) == [1, 1, 3, 3])
    #expect(diagram.duration == 4)
  }

  @Test("the subscription point is tick 0; earlier events have negative ticks")
  func subscriptionPoint() throws {
    let diagram = try MarbleDiagram("a-^-b")
    #expect(
      diagram.frames == [.init(tick: -2, event: .value("a")), .init(tick: 1, event: .value("b"))])
  }

  @Test("spaces are ignored, so diagrams can be lined up")
  func spaces() throws {
    #expect(try MarbleDiagram("- a - |") == MarbleDiagram("-a-|"))
  }

  @Test("a diagram is drawn back in canonical form")
  func drawing() throws {
    #expect(try MarbleDiagram("- a (bc) {42} |").description == "-a(bc){42}|")
  }

  @Test(
    "a malformed diagram names the problem and points at the offending character",
    arguments: [
      ("-a-)-", "')' without a matching '('", 3),
      ("-(ab", "'(' is never closed", 1),
      ("-()", "an empty group '()'", 2),
      ("-(a-b)", "'-' is not allowed inside a group", 3),
      ("-{ab", "'{' is never closed", 1),
      ("-{}", "an empty value name '{}'", 1),
      ("{a(b}", "'(' is not allowed in a value name", 2),
      ("-{ab^}", "'^' is not allowed in a value name", 4),
      ("-a}", "'}' without a matching '{'", 2),
      ("-|-a", "an event after the completion", 3),
      ("^-^", "a second subscription point '^'", 2),
      ("-*-", "unexpected character '*'", 1),
    ])
  func malformed(diagram: String, message: String, offset: Int) {
    #expect {
      try MarbleDiagram(diagram)
    } throws: { error in
      guard let error = error as? MarbleDiagram.ParseError else { return false }
      return error.message == message && error.offset == offset
        && error.description.hasSuffix(String(repeating: " ", count: offset) + "^")
    }
  }
}
