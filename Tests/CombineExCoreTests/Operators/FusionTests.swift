import CombineExCore
import CombineExTesting
import Testing

// Combine's operator fusions, checked by the type the compiler infers on a subject upstream
// (on `[...].publisher` the operators are applied to the sequence at once, so there would be
// nothing to fuse). Each operator's own tests check its fusions too: MapTests (map.map),
// FilterTests (filter.filter), CompactMapTests (compactMap.compactMap, compactMap.map),
// TryMapTests (map.tryMap, tryMap.map, tryMap.tryMap) and TryFilterTests (filter.tryFilter,
// tryFilter.filter, tryFilter.tryFilter). This file holds the others.
@Suite("operator fusion")
struct FusionTests {
  @Test("tryCompactMap.compactMap is one TryCompactMap, whose second closure may throw")
  func tryCompactMapThenCompactMap() {
    let subject = PassthroughSubject<String, Never>()
    let fused = subject.tryCompactMap { Int($0) }.compactMap { value -> String? in
      if value > 10 { throw TestError(value) }
      return value.isMultiple(of: 2) ? "#\(value)" : nil
    }
    #expect(
      type(of: fused) == Publishers.TryCompactMap<PassthroughSubject<String, Never>, String>.self)
    let recorder = fused.record()
    for text in ["1", "x", "2", "30", "4"] { subject.send(text) }
    #expect(recorder.values == ["#2"])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(30))
  }

  @Test("setFailureType.setFailureType is one SetFailureType over the same upstream")
  func setFailureTypeTwice() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.setFailureType(to: TestError.self).setFailureType(to: (any Error).self)
    #expect(
      type(of: fused) == Publishers.SetFailureType<PassthroughSubject<Int, Never>, any Error>.self)
    let recorder = fused.record()
    subject.send(4)
    subject.send(completion: .finished)
    #expect(recorder.values == [4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a chain of three fusable maps is still one Publishers.Map")
  func threeMaps() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.map { $0 + 1 }.map { $0 * 2 }.map { "\($0)" }
    #expect(type(of: fused) == Publishers.Map<PassthroughSubject<Int, Never>, String>.self)
    let recorder = fused.record()
    subject.send(1)
    #expect(recorder.values == ["4"])
  }

  @Test("map after filter is not fused: Combine fuses only the pairs it lists")
  func filterThenMapIsNotFused() {
    let subject = PassthroughSubject<Int, Never>()
    let chained = subject.filter { $0 > 0 }.map { $0 * 2 }
    #expect(
      type(of: chained)
        == Publishers.Map<Publishers.Filter<PassthroughSubject<Int, Never>>, Int>.self)
  }
}
