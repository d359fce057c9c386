import CombineEx
import CombineExTesting
import Testing

@Suite("Property compactMap (the original CombineEx's form)")
struct PropertyCompactMapTests {
  @Test("naming the original's type picks its form: the current value, then non-nil changes")
  func namedFormReplaysAndSkipsNil() {
    let count = MutableProperty(2)
    let evens: Publishers.CompactMap<AnyPublisher<Int, Never>, String> =
      count.compactMap { $0.isMultiple(of: 2) ? "\($0)" : nil }
    let recorder = evens.record()
    count.value = 3
    count.value = 4
    #expect(recorder.values == ["2", "4"])
    recorder.cancel()
    count.value = 6
    #expect(recorder.values == ["2", "4"])
  }

  @Test("without a named type, Combine's compactMap is chosen and accepts non-Sendable captures")
  func combineFormByDefault() {
    final class Log { var seen: [Int] = [] }
    let log = Log()
    let count = MutableProperty(1)
    let mapped = count.compactMap { value -> Int? in
      log.seen.append(value)
      return value
    }
    #expect(type(of: mapped) == Publishers.CompactMap<MutableProperty<Int>, Int>.self)
    #expect(mapped.record().values == [1])
    #expect(log.seen == [1])
  }
}
