import CombineEx
import Testing

@Suite("CombineEx module")
struct ReexportTests {
  @Test("import CombineEx is enough to use the stream core")
  func reexportsCore() {
    let recorder = TestRecorder<Int>()
    let cancellable = Just(1).map { $0 + 1 }.sink { recorder.values.append($0) }
    #expect(recorder.values == [2])
    withExtendedLifetime(cancellable) {}
  }
}

final class TestRecorder<Value> {
  var values: [Value] = []
}
