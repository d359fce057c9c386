/// A marble diagram: a string that draws a stream of events along time, one character per
/// tick of a ``TestScheduler``.
///
/// ## Grammar
///
/// | Text | Meaning |
/// | --- | --- |
/// | `-` | one tick passes with no event |
/// | `a`, `7` | a value, named by one letter or digit, then one tick passes |
/// | `{name}` | a value with a longer name (`{42}`, `{hello}`), then one tick passes |
/// | `(ab)` | several events in the same tick (`(a|)` is a value and the completion), then one tick passes |
/// | `\|` | the publisher finishes, then one tick passes |
/// | `#` | the publisher fails, then one tick passes |
/// | `^` | the subscription point: tick 0 (takes no time; see below) |
/// | space | nothing: use spaces to line diagrams up |
///
/// Nothing may follow a completion but `-` and spaces.
///
/// Ticks are counted from `^` (from the start of the diagram without one), so the ticks before
/// it are negative. In the diagram of a hot publisher
/// (``TestScheduler/hotPublisher(_:tick:sourceLocation:filePath:line:)``), events before `^` are
/// in the past and never sent. In an expected diagram
/// (``TestScheduler/expect(_:toProduce:tick:sourceLocation:filePath:line:)``), which starts
/// when the publisher is subscribed to, only `-` and spaces may come before `^`: they line the
/// expected diagram up with the input's.
///
/// ```swift
/// let diagram = try MarbleDiagram("-a-(bc)-|")
/// #expect(diagram.frames.map(\.tick) == [1, 3, 3, 5])
/// ```
///
/// A malformed diagram throws a ``MarbleDiagram/ParseError`` whose description points at the
/// offending character.
public struct MarbleDiagram: Equatable, Sendable, CustomStringConvertible {
  /// What happens at one moment of a diagram.
  public enum Event: Equatable, Sendable, CustomStringConvertible {
    /// A value, by its name in the diagram.
    case value(String)
    /// The publisher finished.
    case finished
    /// The publisher failed.
    case failure

    /// The event as drawn in a diagram.
    public var description: String {
      switch self {
      case .value(let name): return name.count == 1 ? name : "{\(name)}"
      case .finished: return "|"
      case .failure: return "#"
      }
    }
  }

  /// An event at a tick (relative to the subscription point).
  public struct Frame: Equatable, Sendable, CustomStringConvertible {
    /// The tick, counted from the subscription point `^` (or from the start).
    public let tick: Int
    /// What happens.
    public let event: Event

    /// Creates a frame.
    public init(tick: Int, event: Event) {
      self.tick = tick
      self.event = event
    }

    /// `"event@tick"`.
    public var description: String { "\(event)@\(tick)" }
  }

  /// A malformed diagram, with the position of the offending character.
  public struct ParseError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// The diagram that was parsed.
    public let diagram: String
    /// The position of the offending character (0-based).
    public let offset: Int

    /// The message, the diagram, and a caret under the offending character.
    public var description: String {
      let caret = String(repeating: " ", count: offset) + "^"
      return "\(message) at column \(offset + 1):\n  \(diagram)\n  \(caret)"
    }
  }

  /// The events, in order.
  public let frames: [Frame]

  /// How many ticks the diagram spans after its subscription point (its total length).
  public let duration: Int

  /// The text the diagram was parsed from.
  public let text: String

  /// Parses a diagram.
  public init(_ text: String) throws(ParseError) {
    try self.init(text, allowsEventsBeforeSubscription: true)
  }

  /// Parses a diagram; with `allowsEventsBeforeSubscription` false (an expected diagram, which
  /// starts at the subscription), an event before `^` is an error.
  init(_ text: String, allowsEventsBeforeSubscription: Bool) throws(ParseError) {
    var parser = Parser(text: text)
    try parser.parse()
    if !allowsEventsBeforeSubscription,
      let early = parser.frames.first(where: { $0.tick < parser.origin })
    {
      throw parser.error(
        "an event before the subscription point '^' (an expected diagram starts at the "
          + "subscription: only '-' may come before '^')", at: early.offset)
    }
    self.text = text
    frames = parser.frames.map { Frame(tick: $0.tick - parser.origin, event: $0.event) }
    duration = parser.tick - parser.origin
  }

  /// Draws `frames` as a diagram of at least `duration` ticks, starting at tick 0.
  public static func draw(_ frames: [Frame], duration: Int = 0) -> String {
    let byTick = Dictionary(grouping: frames.filter { $0.tick >= 0 }, by: \.tick)
    let end = max(duration, (byTick.keys.max() ?? -1) + 1)
    var text = ""
    for tick in 0..<end {
      guard let events = byTick[tick] else {
        text += "-"
        continue
      }
      let drawn = events.map(\.event.description).joined()
      text += events.count == 1 ? drawn : "(\(drawn))"
    }
    return text
  }

  /// The diagram redrawn in canonical form (from its subscription point).
  public var description: String {
    Self.draw(frames, duration: duration)
  }

  /// Two diagrams are equal when they draw the same events at the same ticks over the same
  /// duration, however they were spelled.
  public static func == (lhs: MarbleDiagram, rhs: MarbleDiagram) -> Bool {
    lhs.frames == rhs.frames && lhs.duration == rhs.duration
  }
}

/// Reads a diagram one character at a time.
private struct Parser {
  let text: String
  let characters: [Character]
  /// The events, with their tick counted from the start of the text and the offset of the
  /// character that drew them.
  var frames: [(tick: Int, event: MarbleDiagram.Event, offset: Int)] = []
  var tick = 0
  var origin = 0
  var sawOrigin = false
  var completed = false

  init(text: String) {
    self.text = text
    characters = Array(text)
  }

  func error(_ message: String, at offset: Int) -> MarbleDiagram.ParseError {
    MarbleDiagram.ParseError(message: message, diagram: text, offset: offset)
  }

  mutating func parse() throws(MarbleDiagram.ParseError) {
    var index = 0
    while index < characters.count {
      let character = characters[index]
      switch character {
      case " ":
        index += 1
      case "-":
        tick += 1
        index += 1
      case "^":
        guard !sawOrigin else { throw error("a second subscription point '^'", at: index) }
        sawOrigin = true
        origin = tick
        index += 1
      case "(":
        index = try parseGroup(from: index)
        tick += 1
      case ")":
        throw error("')' without a matching '('", at: index)
      default:
        let (event, next) = try parseEvent(at: index)
        try add(event, at: index)
        index = next
        tick += 1
      }
    }
  }

  /// Parses `(...)`; returns the index after `)`.
  mutating func parseGroup(from start: Int) throws(MarbleDiagram.ParseError) -> Int {
    var index = start + 1
    var count = 0
    while index < characters.count {
      switch characters[index] {
      case ")":
        guard count > 0 else { throw error("an empty group '()'", at: index) }
        return index + 1
      case " ":
        index += 1
      case "(", "-", "^":
        throw error("'\(characters[index])' is not allowed inside a group", at: index)
      default:
        let (event, next) = try parseEvent(at: index)
        try add(event, at: index)
        count += 1
        index = next
      }
    }
    throw error("'(' is never closed", at: start)
  }

  /// Parses one event (a value name, `{name}`, `|` or `#`) at `index`.
  func parseEvent(at index: Int) throws(MarbleDiagram.ParseError) -> (MarbleDiagram.Event, Int) {
    let character = characters[index]
    switch character {
    case "|":
      return (.finished, index + 1)
    case "#":
      return (.failure, index + 1)
    case "{":
      guard let close = characters[index...].firstIndex(of: "}") else {
        throw error("'{' is never closed", at: index)
      }
      let name = String(characters[(index + 1)..<close])
      guard !name.isEmpty else { throw error("an empty value name '{}'", at: index) }
      if let bad = name.firstIndex(where: { "{()^|#".contains($0) }) {
        throw error(
          "'\(name[bad])' is not allowed in a value name",
          at: index + 1 + name.distance(from: name.startIndex, to: bad))
      }
      return (.value(name), close + 1)
    case "}":
      throw error("'}' without a matching '{'", at: index)
    default:
      guard character.isLetter || character.isNumber else {
        throw error("unexpected character '\(character)'", at: index)
      }
      return (.value(String(character)), index + 1)
    }
  }

  mutating func add(_ event: MarbleDiagram.Event, at index: Int) throws(MarbleDiagram.ParseError) {
    guard !completed else {
      throw error("an event after the completion", at: index)
    }
    if event == .finished || event == .failure { completed = true }
    frames.append((tick, event, index))
  }
}
