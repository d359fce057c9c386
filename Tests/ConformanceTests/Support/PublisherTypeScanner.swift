import Foundation

/// Lists the public publisher types declared in Swift source files, by reading them: every
/// public `struct`, `class`, `enum` or `actor` that conforms, in its declaration or in an
/// extension, to `Publisher` or to a protocol that refines it (`Subject`, `PropertyProtocol`,
/// ...), named with its enclosing types (`Publishers.Map`, `Result.Publisher`).
///
/// It is a light lexer, not a compiler: it skips comments and string literals (with their
/// interpolations), follows braces to know what encloses what, and reads declaration headers.
struct PublisherTypeScanner {
  /// A type, protocol or extension header.
  struct Declaration {
    enum Kind { case type, `protocol`, `extension` }
    let kind: Kind
    /// The declared name with its enclosing types; for an extension, the extended type.
    let name: String
    /// The enclosing types, outermost first (used to resolve unqualified names).
    let context: [String]
    let isPublic: Bool
    /// Inherited types and conformances, as written (module prefixes removed), with whether
    /// the name was written with a module prefix (then it is a top-level name).
    let inherits: [(name: String, topLevel: Bool)]
    let file: String
  }

  private(set) var declarations: [Declaration] = []

  /// Reads every `.swift` file under `directory`.
  static func scanning(directory: URL) throws -> PublisherTypeScanner {
    var scanner = PublisherTypeScanner()
    let enumerator = FileManager.default.enumerator(
      at: directory, includingPropertiesForKeys: nil)
    var files: [URL] = []
    while let url = enumerator?.nextObject() as? URL {
      if url.pathExtension == "swift" { files.append(url) }
    }
    for url in files.sorted(by: { $0.path < $1.path }) {
      let text = try String(contentsOf: url, encoding: .utf8)
      let relative = url.path.replacingOccurrences(of: directory.path + "/", with: "")
      scanner.scan(text, file: relative)
    }
    return scanner
  }

  /// The public publisher types, each with the file that declares it.
  var publisherTypes: [String: String] {
    let declaredNames = Set(declarations.filter { $0.kind != .extension }.map(\.name))
    func resolve(_ name: String, topLevel: Bool, context: [String]) -> String {
      guard !topLevel else { return name }
      var prefix = context
      while !prefix.isEmpty {
        let candidate = (prefix + [name]).joined(separator: ".")
        if declaredNames.contains(candidate) { return candidate }
        prefix.removeLast()
      }
      return name
    }
    var publisherish: Set<String> = ["Publisher"]
    var changed = true
    while changed {
      changed = false
      for declaration in declarations where !publisherish.contains(declaration.name) {
        let conforms = declaration.inherits.contains { inherited in
          publisherish.contains(
            resolve(inherited.name, topLevel: inherited.topLevel, context: declaration.context))
        }
        if conforms {
          publisherish.insert(declaration.name)
          changed = true
        }
      }
    }
    var result: [String: String] = [:]
    for declaration in declarations
    where declaration.kind == .type && declaration.isPublic
      && publisherish.contains(declaration.name)
    {
      result[declaration.name] = declaration.file
    }
    return result
  }

  // MARK: Parsing

  private enum Token: Equatable {
    case word(String)
    case symbol(Character)
  }

  private struct Scope {
    /// The qualified name of the type or extension this brace opens, or nil for any other
    /// brace (functions, closures, accessors).
    let name: String?
    let isPublicExtension: Bool
  }

  private static let declarationKeywords: Set<String> = [
    "struct", "class", "enum", "actor", "protocol", "extension",
  ]
  private static let modifiers: Set<String> = [
    "public", "open", "internal", "private", "fileprivate", "package", "final", "indirect",
    "nonisolated", "frozen", "usableFromInline", "unchecked", "available", "dynamicMemberLookup",
    "propertyWrapper", "resultBuilder", "objc", "MainActor", "preconcurrency",
  ]
  private static let notATypeName: Set<String> = [
    "func", "var", "let", "subscript", "override", "static", "final", "init", "deinit",
    "where", "case",
  ]

  mutating func scan(_ text: String, file: String) {
    let tokens = Self.tokenize(text)
    var scopes: [Scope] = []
    var pending: Scope?
    var index = 0
    func word(at position: Int) -> String? {
      guard position >= 0, position < tokens.count, case .word(let word) = tokens[position]
      else { return nil }
      return word
    }
    func isSymbol(_ symbol: Character, at position: Int) -> Bool {
      position < tokens.count && tokens[position] == .symbol(symbol)
    }
    while index < tokens.count {
      switch tokens[index] {
      case .symbol("{"):
        scopes.append(pending ?? Scope(name: nil, isPublicExtension: false))
        pending = nil
        index += 1
        continue
      case .symbol("}"):
        if !scopes.isEmpty { scopes.removeLast() }
        index += 1
        continue
      case .word(let keyword) where Self.declarationKeywords.contains(keyword):
        guard let first = word(at: index + 1), !Self.notATypeName.contains(first) else { break }
        // The modifiers written before the keyword.
        var modifiers: Set<String> = []
        var back = index - 1
        while back >= 0 {
          if let modifier = word(at: back), Self.modifiers.contains(modifier) {
            modifiers.insert(modifier)
          } else if tokens[back] != .symbol("@") {
            break
          }
          back -= 1
        }
        // The name: dotted for an extension.
        var name = first
        var position = index + 2
        while keyword == "extension", isSymbol(".", at: position),
          let part = word(at: position + 1)
        {
          name += ".\(part)"
          position += 2
        }
        // Generic parameters.
        if isSymbol("<", at: position) {
          var depth = 0
          repeat {
            if isSymbol("<", at: position) { depth += 1 }
            if isSymbol(">", at: position) { depth -= 1 }
            position += 1
          } while depth > 0 && position < tokens.count
        }
        // Inheritance clause, up to `where` or `{`.
        var inherits: [(name: String, topLevel: Bool)] = []
        if isSymbol(":", at: position) {
          position += 1
          var current: [String] = []
          var depth = 0
          func flush() {
            guard !current.isEmpty else { return }
            let topLevel =
              ["CombineExCore", "CombineEx", "Swift"].contains(current[0])
              && current.count > 1
            let name = (topLevel ? current.dropFirst() : current[...]).joined(separator: ".")
            inherits.append((name, topLevel))
            current = []
          }
          while position < tokens.count {
            let token = tokens[position]
            if depth == 0, token == .symbol("{") || token == .word("where") { break }
            switch token {
            case .symbol("<"), .symbol("("): depth += 1
            case .symbol(">"), .symbol(")"): depth -= 1
            case .symbol(","): if depth == 0 { flush() }
            case .symbol("@"): position += 1  // skip the attribute's name (@unchecked)
            case .word(let part):
              if depth == 0, current.isEmpty || isSymbol(".", at: position - 1) {
                if part != "any", part != "some" { current.append(part) }
              }
            default: break
            }
            position += 1
          }
          flush()
        }
        let enclosing = scopes.map(\.name)
        let isLocal = enclosing.contains(nil)
        let context = enclosing.compactMap { $0 }
        let kind: Declaration.Kind =
          keyword == "extension" ? .extension : keyword == "protocol" ? .protocol : .type
        let qualified = kind == .extension ? name : (context + [name]).joined(separator: ".")
        let inPublicExtension = scopes.last?.isPublicExtension ?? false
        let explicitlyHidden = !modifiers.isDisjoint(with: ["private", "fileprivate", "internal"])
        let isPublic =
          modifiers.contains("public") || modifiers.contains("open")
          || (inPublicExtension && !explicitlyHidden)
        if !isLocal {
          declarations.append(
            Declaration(
              kind: kind, name: qualified, context: kind == .extension ? [] : context + [name],
              isPublic: isPublic, inherits: inherits, file: file))
        }
        pending = Scope(
          name: isLocal ? nil : qualified,
          isPublicExtension: kind == .extension && modifiers.contains("public"))
        index = position
        continue
      default:
        break
      }
      index += 1
    }
  }

  /// Splits Swift source into words and symbols, dropping whitespace, comments, number and
  /// string literals (including interpolations, raw and multi-line strings).
  private static func tokenize(_ text: String) -> [Token] {
    let bytes = Array(text.utf8)
    var tokens: [Token] = []
    var index = 0
    func byte(_ position: Int) -> UInt8? { position < bytes.count ? bytes[position] : nil }
    func isIdentifierByte(_ value: UInt8) -> Bool {
      value == UInt8(ascii: "_") || (value >= 0x30 && value <= 0x39)
        || (value | 0x20 >= 0x61 && value | 0x20 <= 0x7A) || value >= 0x80
    }
    /// Skips a comment or string starting at `position`, if there is one; returns the index
    /// after it.
    func skipTrivia(_ position: Int) -> Int? {
      guard let current = byte(position) else { return nil }
      if current == UInt8(ascii: "/"), byte(position + 1) == UInt8(ascii: "/") {
        var end = position
        while let value = byte(end), value != UInt8(ascii: "\n") { end += 1 }
        return end
      }
      if current == UInt8(ascii: "/"), byte(position + 1) == UInt8(ascii: "*") {
        var depth = 0
        var end = position
        repeat {
          if byte(end) == UInt8(ascii: "/"), byte(end + 1) == UInt8(ascii: "*") {
            depth += 1
            end += 2
          } else if byte(end) == UInt8(ascii: "*"), byte(end + 1) == UInt8(ascii: "/") {
            depth -= 1
            end += 2
          } else {
            end += 1
          }
        } while depth > 0 && end < bytes.count
        return end
      }
      var hashes = 0
      while byte(position + hashes) == UInt8(ascii: "#") { hashes += 1 }
      guard byte(position + hashes) == UInt8(ascii: "\"") else { return nil }
      return skipString(from: position + hashes, hashes: hashes)
    }
    /// Skips a string literal whose opening quote is at `start`.
    func skipString(from start: Int, hashes: Int) -> Int {
      let quote = UInt8(ascii: "\"")
      let multiline = byte(start + 1) == quote && byte(start + 2) == quote
      let quotes = multiline ? 3 : 1
      var position = start + quotes
      func closes(at position: Int) -> Bool {
        for offset in 0..<quotes where byte(position + offset) != quote { return false }
        for offset in 0..<hashes where byte(position + quotes + offset) != UInt8(ascii: "#") {
          return false
        }
        return true
      }
      while position < bytes.count {
        if bytes[position] == UInt8(ascii: "\\") {
          var after = position + 1
          var escapeHashes = 0
          while escapeHashes < hashes, byte(after) == UInt8(ascii: "#") {
            after += 1
            escapeHashes += 1
          }
          if escapeHashes == hashes, byte(after) == UInt8(ascii: "(") {
            position = skipInterpolation(from: after + 1)
            continue
          }
          position = escapeHashes == hashes ? after + 1 : position + 1
          continue
        }
        if closes(at: position) { return position + quotes + hashes }
        position += 1
      }
      return position
    }
    /// Skips interpolated code up to its closing parenthesis.
    func skipInterpolation(from start: Int) -> Int {
      var depth = 1
      var position = start
      while position < bytes.count, depth > 0 {
        if let end = skipTrivia(position) {
          position = end
          continue
        }
        if bytes[position] == UInt8(ascii: "(") { depth += 1 }
        if bytes[position] == UInt8(ascii: ")") { depth -= 1 }
        position += 1
      }
      return position
    }
    while index < bytes.count {
      if let end = skipTrivia(index) {
        index = end
        continue
      }
      let current = bytes[index]
      if current == UInt8(ascii: "`") {
        var end = index + 1
        while let value = byte(end), value != UInt8(ascii: "`") { end += 1 }
        tokens.append(.word(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)))
        index = end + 1
      } else if isIdentifierByte(current), !(current >= 0x30 && current <= 0x39) {
        var end = index
        while let value = byte(end), isIdentifierByte(value) { end += 1 }
        tokens.append(.word(String(decoding: bytes[index..<end], as: UTF8.self)))
        index = end
      } else if current >= 0x30 && current <= 0x39 {
        while let value = byte(index), isIdentifierByte(value) || value == UInt8(ascii: ".") {
          index += 1
        }
      } else if current == 0x20 || current == 0x0A || current == 0x09 || current == 0x0D {
        index += 1
      } else {
        tokens.append(.symbol(Character(UnicodeScalar(current))))
        index += 1
      }
    }
    return tokens
  }
}
