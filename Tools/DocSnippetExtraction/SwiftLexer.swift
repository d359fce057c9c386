// Just enough of Swift's lexical structure to tell code from comments and string literals, one
// line at a time: for the brace depth of declarations (the symbol a doc comment belongs to) and
// of example code (where a statement ends), and for finding a line's trailing `//` comment.

/// Reads lines in order, remembering what spans lines (block comments, multi-line strings).
struct SwiftLineLexer {
  private enum State {
    case code
    case blockComment(depth: Int)
    case multilineString(hashes: Int)
  }

  /// A line split into its code and its trailing comment.
  struct Line {
    /// The line with comments removed and the contents of string literals blanked out (each
    /// literal keeps its quotes, so `"{"` counts no brace).
    let code: String
    /// The `//` comment that ends the line, from its slashes, if any.
    let comment: String?
    /// Where the comment starts in the original line (its offset in characters).
    let commentOffset: Int?
  }

  private var state = State.code

  mutating func scan(_ text: String) -> Line {
    let characters = Array(text)
    var code = ""
    var index = 0
    func starts(_ string: String, at offset: Int) -> Bool {
      let pattern = Array(string)
      guard offset + pattern.count <= characters.count else { return false }
      return Array(characters[offset..<(offset + pattern.count)]) == pattern
    }
    while index < characters.count {
      switch state {
      case .blockComment(let depth):
        if starts("*/", at: index) {
          state = depth == 1 ? .code : .blockComment(depth: depth - 1)
          index += 2
        } else if starts("/*", at: index) {
          state = .blockComment(depth: depth + 1)
          index += 2
        } else {
          index += 1
        }
        code += " "
      case .multilineString(let hashes):
        let closing = "\"\"\"" + String(repeating: "#", count: hashes)
        if characters[index] == "\\" && hashes == 0 {
          index += 2
        } else if starts(closing, at: index) {
          state = .code
          index += closing.count
          code += closing
        } else {
          index += 1
        }
      case .code:
        let character = characters[index]
        if starts("//", at: index) {
          return Line(code: code, comment: String(characters[index...]), commentOffset: index)
        }
        if starts("/*", at: index) {
          state = .blockComment(depth: 1)
          index += 2
          continue
        }
        if character == "#" || character == "\"" {
          var hashes = 0
          while index + hashes < characters.count && characters[index + hashes] == "#" {
            hashes += 1
          }
          let quote = index + hashes
          if starts("\"\"\"", at: quote) {
            state = .multilineString(hashes: hashes)
            code += String(repeating: "#", count: hashes) + "\"\"\""
            index = quote + 3
            continue
          }
          if quote < characters.count && characters[quote] == "\"" {
            index = endOfString(characters, openingQuote: quote, hashes: hashes)
            code +=
              String(repeating: "#", count: hashes) + "\"\"" + String(repeating: "#", count: hashes)
            continue
          }
        }
        code.append(character)
        index += 1
      }
    }
    return Line(code: code, comment: nil, commentOffset: nil)
  }

  /// The index after the string literal that opens at `openingQuote` (with `hashes` `#`s
  /// before it), skipping escapes and interpolations; the end of the line if it is not closed.
  private func endOfString(_ characters: [Character], openingQuote: Int, hashes: Int) -> Int {
    var index = openingQuote + 1
    let escape = "\\" + String(repeating: "#", count: hashes)
    while index < characters.count {
      if characters[index] == "\"" {
        var closingHashes = 0
        while closingHashes < hashes && index + 1 + closingHashes < characters.count
          && characters[index + 1 + closingHashes] == "#"
        {
          closingHashes += 1
        }
        if closingHashes == hashes { return index + 1 + hashes }
      }
      if String(characters[index..<min(index + escape.count, characters.count)]) == escape {
        index += escape.count
        if index < characters.count && characters[index] == "(" {
          // An interpolation: code up to the matching parenthesis.
          var depth = 0
          while index < characters.count {
            if characters[index] == "(" { depth += 1 }
            if characters[index] == ")" {
              depth -= 1
              if depth == 0 { break }
            }
            if characters[index] == "\"" {
              index = endOfString(characters, openingQuote: index, hashes: 0)
              continue
            }
            index += 1
          }
        }
        index += 1
        continue
      }
      index += 1
    }
    return characters.count
  }
}
