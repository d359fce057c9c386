import CombineEx
import CombineExTesting

/// An operator drawn as a marble diagram in a guide: how to build it from the inputs of a
/// ``MarbleRun``, and the line of code the diagram shows between the inputs and the output.
struct OperatorDiagram {
  /// The name of its block in the guide: `<!-- marbles: <id> -->`.
  let id: String
  /// The operator, as the diagram shows it (the code `make` applies).
  let code: String
  /// How many ticks to play: by default, until two ticks after the end of the last row.
  let ticks: Int?
  /// Builds the publisher to draw, from the run's inputs.
  let draw: (MarbleRun) -> String

  init<P: Publisher>(
    _ id: String, _ code: String, ticks: Int? = nil, _ make: @escaping (MarbleRun) -> P
  ) {
    self.id = id
    self.code = code
    self.ticks = ticks
    draw = { run in
      let (frames, end) = run.record(make(run), ticks: ticks)
      let outputEnd = end ?? max(run.rowsEnd, (frames.map(\.tick).max() ?? -1) + 1)
      return DiagramDrawing(rows: run.rows, code: code, output: frames, outputEnd: outputEnd).text
    }
  }

  /// The diagram that running the operator draws.
  func drawn() -> String { draw(MarbleRun()) }
}

/// Draws rows of events tick by tick, in columns as wide as their widest event, so that the
/// events of one tick line up on every row: a narrower cell is stretched with `-` while its
/// row goes on (time passes), with spaces once it has ended.
struct DiagramDrawing {
  let rows: [MarbleRun.Row]
  let code: String
  let output: [MarbleDiagram.Frame]
  let outputEnd: Int

  var text: String {
    // Each line: a label, and its cells from tick 0 (nil where the row does not reach).
    var lines: [(label: String, cells: [String?])] = rows.map { row in
      let frames = row.diagram.frames.map {
        MarbleDiagram.Frame(tick: $0.tick + row.start, event: $0.event)
      }
      return (row.label, cells(frames, from: row.start, to: row.start + row.diagram.duration))
    }
    lines.append(("output", cells(output, from: 0, to: outputEnd)))
    let ticks = lines.map(\.cells.count).max() ?? 0
    let widths = (0..<ticks).map { tick in
      lines.compactMap { $0.cells.count > tick ? $0.cells[tick]?.count : nil }.max() ?? 1
    }
    let labelWidth = lines.map(\.label.count).max()! + 1
    let drawn = lines.map { line -> String in
      var text = line.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
      for (tick, cell) in line.cells.enumerated() {
        let ends = cell.map { $0.contains("|") || $0.contains("#") } ?? true
        text += (cell ?? "").padding(
          toLength: widths[tick], withPad: ends ? " " : "-", startingAt: 0)
      }
      return String(text.reversed().drop { $0 == " " }.reversed())
    }
    return (drawn.dropLast() + [code, drawn.last!]).joined(separator: "\n")
  }

  /// The cells of ticks `0 ..< end`: nothing before `start`, `-` for a tick without events.
  private func cells(_ frames: [MarbleDiagram.Frame], from start: Int, to end: Int) -> [String?] {
    (0..<end).map { tick -> String? in
      guard tick >= start else { return nil }
      let events = frames.filter { $0.tick == tick }.map(\.event.description)
      switch events.count {
      case 0: return "-"
      case 1: return events[0]
      default: return "(" + events.joined() + ")"
      }
    }
  }
}
