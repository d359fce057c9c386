import CombineExCore
import Testing

@Suite("CombineIdentifier")
struct CombineIdentifierTests {
  @Test("init() makes a new identifier every time")
  func uniqueIdentifiers() {
    let identifiers = (0..<1_000).map { _ in CombineIdentifier() }
    #expect(Set(identifiers).count == 1_000)
  }

  @Test("init(_:) gives equal identifiers for the same object and different ones otherwise")
  func objectIdentifiers() {
    let first = TestOwner()
    let second = TestOwner()
    #expect(CombineIdentifier(first) == CombineIdentifier(first))
    #expect(CombineIdentifier(first).hashValue == CombineIdentifier(first).hashValue)
    #expect(CombineIdentifier(first) != CombineIdentifier(second))
    #expect(CombineIdentifier(first) != CombineIdentifier())
  }

  @Test("a class subscriber's default combineIdentifier is derived from its identity")
  func classSubscriberIdentifier() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect(sink.combineIdentifier == CombineIdentifier(sink))
    #expect(sink.combineIdentifier == sink.combineIdentifier)
  }

  @Test("the description is hexadecimal")
  func description() {
    let description = CombineIdentifier().description
    #expect(description.hasPrefix("0x"))
    #expect(UInt64(description.dropFirst(2), radix: 16) != nil)
  }
}
