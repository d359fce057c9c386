/// A value as Swift's `print` shows it (`String(describing:)`), without the module names that
/// Swift writes before the types of nested values: `.success(["a"])` inside an action prints as
/// `Swift.Result<Swift.Array<Swift.String>, Search.Failure>.success(["a"])`, which this turns
/// into `Result<Array<String>, Failure>.success(["a"])`.
///
/// The module names are learnt from the value itself: the qualified names of the types met while
/// walking it with `Mirror` (at most ``readableDescriptionNodeLimit`` values), plus `Swift`.
/// Quoted strings in the text are left as they are, and so is a name right after a module name
/// (a type named like its module keeps its own name). The `(unknown context at $…)` that marks
/// a type declared inside a function is removed too.
package func readableDescription(of value: Any) -> String {
  withoutModuleNames(String(describing: value), learntFrom: value)
}

/// `text` (a description of `value`, such as `dump` prints) without the module names of the
/// types in `value`, as ``readableDescription(of:)`` removes them.
package func withoutModuleNames(_ text: String, learntFrom value: Any) -> String {
  stripModuleNames(text, modules: moduleNames(in: value))
}

/// An action as logs and test messages show it: `Type.case(...)` for an enum case (whose
/// description does not name its type), the readable description otherwise (`Add(amount: 2)`,
/// `Thunk (Feature.swift:12)`).
package func readableActionDescription(_ action: Any) -> String {
  let text = readableDescription(of: action)
  let type = "\(Swift.type(of: action))"
  if Mirror(reflecting: action).displayStyle == .enum, !text.hasPrefix(type) {
    return "\(type).\(text)"
  }
  return text
}

/// How many values ``readableDescription(of:)`` looks at to learn module names: enough for any
/// action or test state, and a bound for huge ones.
let readableDescriptionNodeLimit = 2_000

/// The module names in the qualified type names of `value` and the values it contains.
private func moduleNames(in value: Any) -> Set<Substring> {
  var modules: Set<Substring> = ["Swift"]
  var seenTypes: Set<ObjectIdentifier> = []
  var pending: [Any] = [value]
  var visited = 0
  while let next = pending.popLast(), visited < readableDescriptionNodeLimit {
    visited += 1
    let type = Swift.type(of: next)
    if seenTypes.insert(ObjectIdentifier(type)).inserted {
      modules.formUnion(leadingNames(inQualifiedName: String(reflecting: type)))
    }
    pending.append(contentsOf: Mirror(reflecting: next).children.map(\.value))
  }
  return modules
}

/// The first name of every dotted path in a qualified type name: its module.
/// `Swift.Result<Swift.Int, App.Failure>` gives `Swift`, `Swift` and `App`.
private func leadingNames(inQualifiedName name: String) -> [Substring] {
  var names: [Substring] = []
  var index = name.startIndex
  var atPathStart = true
  while index < name.endIndex {
    let character = name[index]
    if isIdentifierCharacter(character) {
      let end = name[index...].firstIndex { !isIdentifierCharacter($0) } ?? name.endIndex
      if atPathStart, end < name.endIndex, name[end] == "." {
        names.append(name[index..<end])
      }
      atPathStart = false
      index = end
    } else {
      atPathStart = character != "."
      index = name.index(after: index)
    }
  }
  return names
}

/// `text` without the module names in `modules` where they start a dotted path, and without
/// `(unknown context at $…).`; quoted strings are copied as they are.
private func stripModuleNames(_ text: String, modules: Set<Substring>) -> String {
  let unknownContext = "(unknown context at $"
  var result = ""
  result.reserveCapacity(text.utf8.count)
  var index = text.startIndex
  var justStripped = false
  while index < text.endIndex {
    let character = text[index]
    if character == "\"" {
      let end = endOfQuotedString(in: text, from: index)
      result += text[index..<end]
      index = end
      justStripped = false
      continue
    }
    let atPathStart = result.last.map { !isIdentifierCharacter($0) && $0 != "." } ?? true
    if atPathStart, character == "(", text[index...].hasPrefix(unknownContext),
      let close = text[index...].firstIndex(of: ")"),
      text.index(after: close) < text.endIndex, text[text.index(after: close)] == "."
    {
      index = text.index(close, offsetBy: 2)
      justStripped = true
      continue
    }
    if atPathStart, !justStripped {
      if isIdentifierCharacter(character) {
        let end = text[index...].firstIndex { !isIdentifierCharacter($0) } ?? text.endIndex
        if end < text.endIndex, text[end] == ".", modules.contains(text[index..<end]) {
          index = text.index(after: end)
          justStripped = true
          continue
        }
      }
    }
    justStripped = false
    result.append(character)
    index = text.index(after: index)
  }
  return result
}

/// The index after the quoted string that starts at `start` (a `"`), skipping escaped
/// characters; the end of `text` if the string is not closed.
private func endOfQuotedString(in text: String, from start: String.Index) -> String.Index {
  var index = text.index(after: start)
  while index < text.endIndex {
    switch text[index] {
    case "\\":
      index = text.index(after: index)
      if index < text.endIndex { index = text.index(after: index) }
    case "\"":
      return text.index(after: index)
    default:
      index = text.index(after: index)
    }
  }
  return text.endIndex
}

private func isIdentifierCharacter(_ character: Character) -> Bool {
  character == "_" || character.isLetter || character.isNumber
}
