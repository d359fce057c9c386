import CombineEx
import Testing

@Suite("PersistentPropertyKey")
struct PersistentPropertyKeyTests {
  @Test("key and sub-key are the descriptions of what was passed")
  func descriptions() {
    let key = PersistentPropertyKey(key: "draft", subKey: 42)
    #expect(key.key == "draft")
    #expect(key.subKey == "42")
    #expect(PersistentPropertyKey(key: 7).subKey == nil)
  }

  @Test("sanitizedIndex uses only safe characters, never empty, never . or ..")
  func safeCharacters() {
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_%.")
    for text in ["", ".", "..", "../etc/passwd", "a/b", "a\\b", "Ünïcode ✓", "\u{0}", "CON", " "] {
      let index = PersistentPropertyKey(key: text, subKey: text).sanitizedIndex
      #expect(!index.isEmpty)
      #expect(index != "." && index != "..")
      #expect(!index.hasPrefix("."))
      #expect(index.allSatisfy { allowed.contains($0) }, "\(index)")
    }
  }

  @Test("distinct keys give distinct indexes, even when they differ only by case or escapes")
  func injective() {
    let keys = [
      PersistentPropertyKey(key: "a/b"), PersistentPropertyKey(key: "a_b"),
      PersistentPropertyKey(key: "a%2Fb"), PersistentPropertyKey(key: "A/b"),
      PersistentPropertyKey(key: "ab"), PersistentPropertyKey(key: "a", subKey: "b"),
      PersistentPropertyKey(key: "a.b"), PersistentPropertyKey(key: "a", subKey: ""),
      PersistentPropertyKey(key: "a"), PersistentPropertyKey(key: ""),
    ]
    #expect(Set(keys.map(\.sanitizedIndex)).count == keys.count)
  }

  @Test("keys are equal when key and sub-key are")
  func equality() {
    #expect(
      PersistentPropertyKey(key: "a", subKey: 1) == PersistentPropertyKey(key: "a", subKey: "1"))
    #expect(PersistentPropertyKey(key: "a") != PersistentPropertyKey(key: "a", subKey: ""))
  }
}
