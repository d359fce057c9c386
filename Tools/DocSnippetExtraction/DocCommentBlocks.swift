// The ```swift blocks of the `///` comments of a Swift source file, each with the symbol its
// comment documents.
import Foundation

/// One ```swift block of a doc comment.
package struct DocCommentBlock {
  /// The source file, as given (absolute).
  package let path: String
  /// The line of the opening fence (1-based).
  package let fenceLine: Int
  /// The documented symbol, as a reader finds it: `Publisher.flatMap(maxPublishers:_:)`.
  package let symbol: String
  /// The block's lines without their `///` (and the one space after it): `code[i]` is on line
  /// `fenceLine + 1 + i` of the file.
  package let code: [String]
}

/// The text of a `///` line after the slashes and one space, or `nil` for another line.
private func docCommentText(_ line: String) -> String? {
  let trimmed = line.drop { $0 == " " || $0 == "\t" }
  guard trimmed.hasPrefix("///"), !trimmed.hasPrefix("////") else { return nil }
  let text = trimmed.dropFirst(3)
  return String(text.first == " " ? text.dropFirst() : text)
}

func docCommentBlocks(inFile path: String) throws -> [DocCommentBlock] {
  try docCommentBlocks(inText: String(contentsOfFile: path, encoding: .utf8), path: path)
}

/// The blocks of the doc comments of `text`, the contents of the file at `path`.
package func docCommentBlocks(inText text: String, path: String) throws -> [DocCommentBlock] {
  let lines = text.components(separatedBy: "\n")
  var context = DeclarationContext()
  var blocks: [DocCommentBlock] = []
  var pending: [(fenceLine: Int, code: [String])] = []
  var open: (fenceLine: Int, code: [String])?
  for (index, line) in lines.enumerated() {
    guard let text = docCommentText(line) else {
      if let open {
        throw ExtractionError(
          path: path, line: open.fenceLine,
          "the ```swift block of this doc comment is never closed (add a line `/// ```)")
      }
      if !pending.isEmpty, !isAttributeOrBlank(line) {
        let symbol = context.symbol(declaredAt: index, in: lines)
        blocks += pending.map {
          DocCommentBlock(path: path, fenceLine: $0.fenceLine, symbol: symbol, code: $0.code)
        }
        pending = []
      }
      context.read(line)
      continue
    }
    let fence = text.trimmingCharacters(in: .whitespaces)
    if var block = open {
      if fence == "```" {
        pending.append(block)
        open = nil
      } else {
        block.code.append(text)
        open = block
      }
    } else if fence.hasPrefix("```swift") {
      guard fence == "```swift" else {
        throw ExtractionError(
          path: path, line: index + 1,
          "a doc comment's code block is plain ```swift (what it may do is said by comments "
            + "in the code: see CONTRIBUTING.md, \"Examples in doc comments\")")
      }
      open = (index + 1, [])
    }
  }
  return blocks
}

/// A line between a doc comment and its declaration that is not the declaration: an attribute
/// on a line of its own, a blank line, a `//` comment.
private func isAttributeOrBlank(_ line: String) -> Bool {
  let trimmed = line.trimmingCharacters(in: .whitespaces)
  if trimmed.isEmpty || trimmed.hasPrefix("//") { return true }
  guard trimmed.hasPrefix("@") else { return false }
  // `@discardableResult`, `@inlinable`, `@available(...)` alone on their line.
  let words = trimmed.split(separator: " ")
  return words.allSatisfy { $0.hasPrefix("@") || $0.hasSuffix(")") || $0.hasSuffix(",") }
}

/// The types and extensions enclosing each line, from the braces they open.
struct DeclarationContext {
  private var lexer = SwiftLineLexer()
  private var depth = 0
  private var scopes: [(name: String, depth: Int)] = []
  private var pendingScope: String?

  /// The names of the enclosing types, outermost first.
  var path: [String] { scopes.map(\.name) }

  mutating func read(_ line: String) {
    let code = lexer.scan(line).code
    if let name = typeName(declaredIn: tokens(code)) { pendingScope = name }
    for character in code {
      if character == "{" {
        depth += 1
        if let name = pendingScope {
          scopes.append((name, depth))
          pendingScope = nil
        }
      } else if character == "}" {
        if let last = scopes.last, last.depth == depth { scopes.removeLast() }
        depth -= 1
      }
    }
  }

  /// The symbol declared from line `index` on: `Context.name(label:)`, `Context.name`.
  func symbol(declaredAt index: Int, in lines: [String]) -> String {
    var lexer = SwiftLineLexer()
    var text = ""
    for line in lines[index..<min(index + 12, lines.count)] {
      let code = lexer.scan(line).code
      text += code + " "
      if code.contains("{") || code.contains("=") && !code.contains("(") { break }
    }
    let words = tokens(text)
    let declaration = withoutModifiers(words)
    guard let keyword = declaration.first else { return path.joined(separator: ".") }
    let name = declaration.dropFirst().first ?? ""
    var qualified = path
    switch keyword {
    case "struct", "class", "enum", "protocol", "actor", "extension":
      return (path + [name]).joined(separator: ".")
    case "init", "subscript":
      qualified.append(keyword + parameterLabels(after: keyword, in: text))
    case "func":
      qualified.append(name + parameterLabels(after: "func " + name, in: text))
    case "case":
      qualified.append(name)
    default:
      qualified.append(name)
    }
    return qualified.joined(separator: ".")
  }
}

/// Identifiers (with dots, for qualified names), numbers and punctuation of a line of code.
private func tokens(_ code: String) -> [String] {
  var result: [String] = []
  var word = ""
  for character in code {
    if character.isLetter || character.isNumber || character == "_" || character == "."
      || character == "@" && word.isEmpty
    {
      word.append(character)
    } else {
      if !word.isEmpty { result.append(word) }
      word = ""
      if !character.isWhitespace { result.append(String(character)) }
    }
  }
  if !word.isEmpty { result.append(word) }
  return result
}

private let modifiers: Set<String> = [
  "public", "package", "internal", "private", "fileprivate", "open", "final", "static",
  "mutating", "nonmutating", "override", "convenience", "required", "indirect", "lazy", "weak",
  "unowned", "nonisolated", "dynamic", "optional", "consuming", "borrowing", "distributed",
]

/// The declaration's tokens from its keyword on: attributes (with their arguments) and
/// modifiers (with theirs: `nonisolated(nonsending)`, `private(set)`) dropped; `class func`
/// keeps `func`.
private func withoutModifiers(_ words: [String]) -> [String] {
  var index = 0
  func skipArguments() {
    guard index < words.count, words[index] == "(" else { return }
    var depth = 0
    repeat {
      if words[index] == "(" { depth += 1 }
      if words[index] == ")" { depth -= 1 }
      index += 1
    } while index < words.count && depth > 0
  }
  while index < words.count {
    let word = words[index]
    if word.hasPrefix("@") || modifiers.contains(word) {
      index += 1
      skipArguments()
    } else if word == "class", index + 1 < words.count,
      ["func", "var", "let", "subscript"].contains(words[index + 1])
    {
      index += 1
    } else {
      break
    }
  }
  return Array(words[index...])
}

/// The name of the type or extension a line of code declares, if it declares one.
private func typeName(declaredIn words: [String]) -> String? {
  let declaration = withoutModifiers(words)
  guard declaration.count >= 2,
    ["struct", "class", "enum", "protocol", "actor", "extension"].contains(declaration[0])
  else { return nil }
  return declaration[1]
}

/// `(label:label:)` for the parameter list that follows `prefix` in `text` (after an optional
/// generic clause).
private func parameterLabels(after prefix: String, in text: String) -> String {
  guard let start = text.range(of: prefix)?.upperBound else { return "()" }
  var characters = Array(text[start...])
  // Skip a generic clause `<...>`.
  if let first = characters.firstIndex(where: { !$0.isWhitespace }), characters[first] == "<" {
    var depth = 0
    var index = first
    while index < characters.count {
      if characters[index] == "<" { depth += 1 }
      if characters[index] == ">" && characters[index - 1] != "-" { depth -= 1 }
      index += 1
      if depth == 0 { break }
    }
    characters = Array(characters[index...])
  }
  guard let open = characters.firstIndex(of: "(") else { return "()" }
  var parameters: [String] = []
  var current = ""
  var depth = 0
  for character in characters[(open + 1)...] {
    if "([{".contains(character) { depth += 1 }
    if ")]}".contains(character) {
      if depth == 0 { break }
      depth -= 1
    }
    if character == "," && depth == 0 {
      parameters.append(current)
      current = ""
    } else {
      current.append(character)
    }
  }
  if !current.trimmingCharacters(in: .whitespaces).isEmpty { parameters.append(current) }
  let labels = parameters.map { parameter -> String in
    let trimmed = parameter.trimmingCharacters(in: .whitespaces)
    return String(trimmed.prefix { $0 != " " && $0 != ":" })
  }
  return "(" + labels.map { $0 + ":" }.joined() + ")"
}
