// What the two kinds of examples (guides' blocks, doc comments' blocks) share.
import Foundation

/// A problem in a document or a source file, reported as `path:line: error: message` (the form
/// compilers use, so that editors and CI logs point at the line) and failing the build.
package struct ExtractionError: Error, CustomStringConvertible {
  package let path: String
  package let line: Int
  package let message: String

  package init(path: String, line: Int, _ message: String) {
    self.path = path
    self.line = line
    self.message = message
  }

  package var description: String { "\(path):\(line): error: \(message)" }
}

/// The imports of every generated file: examples may use any library module.
let generatedImports = """
  import CombineEx
  import CombineExStore
  import CombineExTesting
  import Foundation
  import Testing

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif
  """

/// `text` with every character that cannot be part of an identifier replaced by `_`.
func identifier(_ text: String) -> String {
  String(text.map { $0.isLetter || $0.isNumber ? $0 : "_" })
}

/// Names declared by `let`/`var` at the top level of a block (no indentation).
func topLevelNames(_ code: [String]) -> [String] {
  code.compactMap { line -> String? in
    for keyword in ["let ", "var "] where line.hasPrefix(keyword) {
      let rest = line.dropFirst(keyword.count)
      let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      return name.isEmpty || name == "_" ? nil : String(name)
    }
    return nil
  }
}

/// Keeps the top-level variables of a block alive until its end, like the variables of a script
/// (an example that stores a cancellable expects it to live on), which also keeps examples that
/// never read a variable warning-free.
func keepingAlive(_ names: [String]) -> String {
  names.map { "  withExtendedLifetime(\($0)) {}\n" }.joined()
}

/// A blank line for an import (the generated file makes its own), indented ones included: an
/// example imports FoundationNetworking inside `#if canImport(FoundationNetworking)`.
func droppingImport(_ line: String) -> String {
  line.trimmingCharacters(in: .whitespaces).hasPrefix("import ") ? "" : line
}

/// `text` as a Swift string literal.
func literal(_ text: String) -> String {
  var escaped = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\\": escaped += "\\\\"
    case "\"": escaped += "\\\""
    case "\n": escaped += "\\n"
    case "\t": escaped += "\\t"
    default: escaped.unicodeScalars.append(scalar)
    }
  }
  return "\"\(escaped)\""
}
