/// Names a persisted value: a main key and an optional sub-key (a user identifier, say).
///
/// ```swift
/// let theme = PersistentPropertyKey(key: "theme")
/// let draft = PersistentPropertyKey(key: "draft", subKey: 42)
/// print(draft.key, draft.subKey ?? "-")  // Prints: draft 42
/// ```
///
/// Any text is a valid key: ``sanitizedIndex`` turns the pair into a name that storage engines
/// can use as a file name, whatever characters the key holds.
public struct PersistentPropertyKey: Hashable, Sendable {
  /// The main key.
  public let key: String

  /// The optional sub-key.
  public let subKey: String?

  /// The key and sub-key as one name made only of `a`-`z`, `0`-`9`, `-`, `_`, `%` and `.`, and
  /// never empty.
  ///
  /// It starts with `k`; every other byte of the key's UTF-8 (upper-case letters, `/`, `.`,
  /// spaces, ...) is written `%xx`, and the sub-key, if any, follows after a `.`. Distinct keys always give distinct
  /// names (the encoding is reversible), even on file systems that ignore case, and no name can
  /// be `.`, `..`, or contain a path separator, so a file named after it stays in its folder.
  ///
  /// ```swift
  /// print(PersistentPropertyKey(key: "../Notes", subKey: "a b").sanitizedIndex)
  /// // Prints: k%2e%2e%2f%4eotes.a%20b
  /// ```
  public let sanitizedIndex: String

  /// Creates a key from the descriptions of `key` and `subKey`.
  public init(key: any CustomStringConvertible, subKey: (any CustomStringConvertible)? = nil) {
    self.key = key.description
    self.subKey = subKey?.description
    var index = "k" + Self.escaped(self.key)
    if let subKey = self.subKey {
      index += "." + Self.escaped(subKey)
    }
    sanitizedIndex = index
  }

  /// `text`'s UTF-8 with every byte other than `a`-`z`, `0`-`9`, `-` and `_` written `%xx`
  /// (lower-case hexadecimal digits, so that a name has no upper-case letter at all).
  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "_"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let digits = Array("0123456789abcdef".unicodeScalars)
        result.unicodeScalars.append("%")
        result.unicodeScalars.append(digits[Int(byte >> 4)])
        result.unicodeScalars.append(digits[Int(byte & 0x0F)])
      }
    }
    return result
  }
}
