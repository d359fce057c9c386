// The convention of doc-comment examples (CONTRIBUTING.md, "Examples in doc comments"):
//
//   subject.send(1)  // Prints: 1          what that statement printed
//   // Prints: 1, 2, finished              what the code since the previous one printed
//                                          (comments on consecutive lines read as one)
//   // Prints: 1, 2 — a remark             a remark follows " — " and is not compared
//   // Prints nothing                      (also with ": a remark" or " — a remark")
//   // Prints:
//   //   numbers: receive value: (1)       one printed line per indented comment line
//   // Not run by the doc tests: <why>     compiled, not run (main queue, network, ...)
//   // Setup: <name>                       a shared setup is prepended (Tests/DocCommentTests/Setups.md)
//
// Several printed lines are written on one line, separated by ", ": the comparison joins the
// printed lines with ", " (so `print(1, 2, separator: ", ")` and two prints read the same).

/// One `// Prints` comment of an example.
package struct PrintsComment {
  /// The index, in the block's code, of the line that holds it.
  package let lineIndex: Int
  /// The lines it says were printed (already split for the multi-line form).
  package let output: [String]
  /// Whether it is at the end of a statement (or alone after one) at the top level of the
  /// block, where the tests compare what was printed since the previous check.
  package var isCheckpoint = false
}

/// What a block says about itself in its comments.
package struct ExampleComments {
  package var prints: [PrintsComment] = []
  /// The reason given by `// Not run by the doc tests: <reason>`.
  package var notRunReason: String?
  /// The names given by `// Setup: <name>`, with the index of their line.
  package var setups: [(name: String, lineIndex: Int)] = []
}

let notRunMarker = "// Not run by the doc tests:"
let setupMarker = "// Setup:"
private let remarkSeparator = " — "

/// Reads the comments of a block; `report` builds the error for a line of it.
package func exampleComments(
  _ code: [String], error: (Int, String) -> ExtractionError
) throws -> ExampleComments {
  var comments = ExampleComments()
  var lexer = SwiftLineLexer()
  let lines = code.map { lexer.scan($0) }
  var index = 0
  while index < lines.count {
    defer { index += 1 }
    guard let comment = lines[index].comment else { continue }
    if comment.hasPrefix(notRunMarker) {
      let reason = comment.dropFirst(notRunMarker.count).trimmingCharacters(in: .whitespaces)
      guard !reason.isEmpty else {
        throw error(index, "say why the example is not run: `\(notRunMarker) <reason>`")
      }
      comments.notRunReason = reason
      continue
    }
    if comment.hasPrefix(setupMarker) {
      let name = comment.dropFirst(setupMarker.count).trimmingCharacters(in: .whitespaces)
      let key = String(name.prefix { !$0.isWhitespace && $0 != "," && $0 != "." })
      comments.setups.append((key, index))
      continue
    }
    guard comment.hasPrefix("// Prints") else { continue }
    let rest = comment.dropFirst("// Prints".count)
    var output: [String]
    if rest.hasPrefix(" nothing") {
      output = []
    } else if rest.hasPrefix(":") {
      var text = rest.dropFirst().trimmingCharacters(in: .whitespaces)
      if let remark = text.range(of: remarkSeparator) { text = String(text[..<remark.lowerBound]) }
      if text.isEmpty {
        // The multi-line form: one printed line per following comment line indented by
        // two spaces or more (`//   line`).
        output = []
        while index + 1 < lines.count, let next = lines[index + 1].comment,
          lines[index + 1].code.trimmingCharacters(in: .whitespaces).isEmpty,
          next.hasPrefix("//  ")
        {
          output.append(next.dropFirst(2).trimmingCharacters(in: .whitespaces))
          index += 1
        }
        guard !output.isEmpty else {
          throw error(
            index,
            "`// Prints:` needs what was printed: on the same line (`// Prints: 1, 2`), or one "
              + "line per following comment line indented by two spaces (`//   1`)")
        }
      } else {
        output = [text]
      }
    } else {
      throw error(
        index,
        "unknown form `\(comment)`: write `// Prints: <output>` (lines separated by \", \"; a "
          + "remark after \" — \"), `// Prints nothing`, or the multi-line `// Prints:` form; "
          + "output that comes later (from a task, another queue) needs a block the tests can "
          + "wait for, or `\(notRunMarker) <reason>` (CONTRIBUTING.md, \"Examples in doc "
          + "comments\")")
    }
    comments.prints.append(PrintsComment(lineIndex: index, output: output))
  }
  markCheckpoints(&comments.prints, lines: lines)
  return comments
}

/// Marks the `// Prints` comments that end a top-level statement (or stand alone after one):
/// there the tests compare what was printed since the previous check. Others (inside a closure,
/// in the middle of a chain) add to the next check.
private func markCheckpoints(_ prints: inout [PrintsComment], lines: [SwiftLineLexer.Line]) {
  var depthAfter: [Int] = []
  var depth = 0
  for line in lines {
    for character in line.code {
      if "([{".contains(character) { depth += 1 }
      if ")]}".contains(character) { depth -= 1 }
    }
    depthAfter.append(depth)
  }
  for index in prints.indices {
    let line = prints[index].lineIndex
    guard depthAfter[line] == 0 else { continue }
    // `// Prints` comments on consecutive lines say together what one statement printed.
    if index + 1 < prints.count, prints[index + 1].lineIndex == line + 1,
      lines[line + 1].code.trimmingCharacters(in: .whitespaces).isEmpty
    {
      continue
    }
    let nextCode = lines[(line + 1)...].lazy.map {
      $0.code.trimmingCharacters(in: .whitespaces)
    }.first { !$0.isEmpty }
    if let next = nextCode, continuesStatement(next) { continue }
    prints[index].isCheckpoint = true
  }
}

/// Whether a line starting with `code` continues the statement of the line before it.
private func continuesStatement(_ code: String) -> Bool {
  for start in [".", "?", ":", "+", "-", "*", "/", "&&", "||", "??", "==", "!=", "<", ">", "="]
  where code.hasPrefix(start) {
    return true
  }
  for keyword in ["else", "catch", "where"] where code == keyword || code.hasPrefix(keyword + " ") {
    return true
  }
  return false
}
