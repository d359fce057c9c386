import CombineExCore
import CombineExTesting
import Testing

/// The operators specialized on `Optional.Publisher`: each test pins the result type with an
/// annotation and checks the result for a value and for `nil`.
@Suite("Optional.Publisher operators")
struct OptionalPublisherOperatorsTests {
  typealias Sut = Optional<Int>.Publisher

  @Test("map and compactMap return an Optional.Publisher of the transformed value")
  func mapAndCompactMap() {
    let mapped: Optional<String>.Publisher = Sut(42).map { "\($0)" }
    #expect(mapped.output == "42")
    #expect(Sut(nil).map { "\($0)" }.output == nil)
    let compact: Optional<Int>.Publisher = Sut(42).compactMap { $0 > 50 ? $0 : nil }
    #expect(compact.output == nil)
    #expect(Sut(60).compactMap { $0 > 50 ? $0 : nil }.output == 60)
    #expect(Sut(nil).compactMap { $0 }.output == nil)
  }

  @Test("filter, first(where:), last(where:), prefix(while:) keep a value that passes")
  func filtering() {
    let results: [Optional<Int>.Publisher] = [
      Sut(4).filter { $0 > 3 }, Sut(4).first { $0 > 3 }, Sut(4).last { $0 > 3 },
      Sut(4).prefix { $0 > 3 },
    ]
    #expect(results.map(\.output) == [4, 4, 4, 4])
    #expect(Sut(2).filter { $0 > 3 }.output == nil)
    #expect(Sut(2).first { $0 > 3 }.output == nil)
    #expect(Sut(2).last { $0 > 3 }.output == nil)
    #expect(Sut(2).prefix { $0 > 3 }.output == nil)
    #expect(Sut(nil).filter { _ in true }.output == nil)
  }

  @Test("operators that cannot change at most one value return the publisher itself")
  func identities() {
    for sut in [Sut(5), Sut(nil)] {
      let results: [Optional<Int>.Publisher] = [
        sut.min(), sut.max(), sut.min(by: <), sut.max(by: <), sut.first(), sut.last(),
        sut.removeDuplicates(), sut.removeDuplicates(by: ==), sut.replaceError(with: 0),
        sut.retry(2),
      ]
      #expect(results.allSatisfy { $0 == sut })
    }
  }

  @Test("contains, contains(where:) and allSatisfy publish a Bool, or nothing for nil")
  func predicates() {
    let contains: Optional<Bool>.Publisher = Sut(10).contains(10)
    let containsWhere: Optional<Bool>.Publisher = Sut(10).contains { $0 > 10 }
    let all: Optional<Bool>.Publisher = Sut(10).allSatisfy { $0 == 10 }
    #expect(contains.output == true)
    #expect(containsWhere.output == false)
    #expect(all.output == true)
    #expect(Sut(nil).contains(10).output == nil)
    #expect(Sut(nil).contains { _ in true }.output == nil)
    #expect(Sut(nil).allSatisfy { _ in true }.output == nil)
  }

  @Test("collect publishes a one-element array, or an empty array for nil")
  func collect() {
    let collected: Optional<[Int]>.Publisher = Sut(13).collect()
    #expect(collected.output == [13])
    #expect(Sut(nil).collect().output == [])
  }

  @Test("count publishes 1, or nothing for nil, like Combine")
  func count() {
    let counted: Optional<Int>.Publisher = Sut(100).count()
    #expect(counted.output == 1)
    #expect(Sut(nil).count().output == nil)
  }

  @Test("dropFirst and drop(while:) keep the value only when nothing is dropped")
  func dropping() {
    let dropped: Optional<Int>.Publisher = Sut(1).dropFirst()
    #expect(dropped.output == nil)
    #expect(Sut(1).dropFirst(0).output == 1)
    let dropWhile: Optional<Int>.Publisher = Sut(1).drop { $0 < 0 }
    #expect(dropWhile.output == 1)
    #expect(Sut(-1).drop { $0 < 0 }.output == nil)
    #expect(Sut(nil).dropFirst(0).output == nil)
  }

  @Test("output(at:), output(in:) and prefix keep the value at index 0")
  func indexing() {
    let atZero: Optional<Int>.Publisher = Sut(12).output(at: 0)
    #expect(atZero.output == 12)
    #expect(Sut(12).output(at: 1).output == nil)
    let inRange: Optional<Int>.Publisher = Sut(12).output(in: 0..<10)
    #expect(inRange.output == 12)
    #expect(Sut(12).output(in: 0..<0).output == nil)
    #expect(Sut(12).output(in: 0...0).output == 12)
    #expect(Sut(12).output(in: 1..<10).output == nil)
    #expect(Sut(12).output(in: ..<1).output == 12)
    #expect(Sut(nil).output(in: 0..<10).output == nil)
    let prefixed: Optional<Int>.Publisher = Sut(98).prefix(1)
    #expect(prefixed.output == 98)
    #expect(Sut(98).prefix(0).output == nil)
  }

  @Test("a negative count, index, length or range start stops the program")
  func negativeArguments() async {
    await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.dropFirst(-1) }
    await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.output(at: -1) }
    await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.prefix(-1) }
    await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.output(in: -1..<1) }
  }

  @Test("output(in:) with a range ending at Int.max - 1 or beyond stops the program, as in Combine")
  func tooBigUpperBound() async {
    #expect(Optional(1).publisher.output(in: 0..<(Int.max - 2)).output == 1)
    await #expect(processExitsWith: .failure) {
      _ = Optional(1).publisher.output(in: 0..<(Int.max - 1))
    }
  }

  @Test("reduce and scan fold the value, or publish nothing for nil")
  func reduceAndScan() {
    let reduced: Optional<Int>.Publisher = Sut(4).reduce(2, +)
    let scanned: Optional<Int>.Publisher = Sut(4).scan(2, +)
    #expect(reduced.output == 6)
    #expect(scanned.output == 6)
    #expect(Sut(nil).reduce(2, +).output == nil)
    #expect(Sut(nil).scan(2, +).output == nil)
  }

  @Test("replaceEmpty returns a Just of the value, or of the replacement for nil")
  func replaceEmpty() {
    let kept: Just<Int> = Sut(1).replaceEmpty(with: 100)
    #expect(kept == Just(1))
    #expect(Sut(nil).replaceEmpty(with: 100) == Just(100))
  }

  @Test("ignoreOutput returns an Empty")
  func ignoreOutput() {
    let ignored: Empty<Int, Never> = Sut(1).ignoreOutput()
    #expect(ignored.record().events == [.subscription, .completion(.finished)])
  }
}
