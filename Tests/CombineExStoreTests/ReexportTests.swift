import CombineExStore
import Testing

@Suite("CombineExStore module")
struct StoreReexportTests {
  @Test("import CombineExStore is enough to use the stream core")
  func reexportsCore() {
    var values: [Int] = []
    let cancellable = [1, 2].publisher.sink { values.append($0) }
    #expect(values == [1, 2])
    withExtendedLifetime(cancellable) {}
  }
}
