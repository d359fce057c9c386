import CombineExCore
import CombineExTesting
import Testing

/// The operators specialized on `Publishers.Sequence`: each test pins the result type with an
/// annotation and checks what the result publishes.
@Suite("Publishers.Sequence operators")
struct SequenceOperatorsTests {
  @Test("map returns a Publishers.Sequence of the transformed elements")
  func map() {
    let mapped: Publishers.Sequence<[String], Never> = [1, 2, 3].publisher.map { "\($0)" }
    #expect(mapped.sequence == ["1", "2", "3"])
    #expect(mapped.record().values == ["1", "2", "3"])
  }

  @Test("compactMap, filter and prefix(while:) return a Publishers.Sequence of an array")
  func filtering() {
    let compact: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap {
      Int($0)
    }
    let filtered: Publishers.Sequence<[Int], Never> = (1...6).publisher.filter { $0 % 2 == 0 }
    let prefixed: Publishers.Sequence<[Int], Never> = [1, 2, 5, 1].publisher.prefix { $0 < 3 }
    #expect(compact.sequence == [1, 3])
    #expect(filtered.sequence == [2, 4, 6])
    #expect(prefixed.sequence == [1, 2])
  }

  @Test("drop(while:), dropFirst and prefix keep the standard library's lazy sequences")
  func slicing() {
    let dropWhile: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = [1, 2, 3, 1].publisher
      .drop { $0 < 2 }
    let dropFirst: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher
      .dropFirst(2)
    let prefix: Publishers.Sequence<PrefixSequence<[Int]>, Never> = [1, 2, 3].publisher.prefix(2)
    #expect(dropWhile.record().values == [2, 3, 1])
    #expect(dropFirst.record().values == [3])
    #expect(prefix.record().values == [1, 2])
    #expect([1, 2, 3].publisher.dropFirst().record().values == [2, 3])
  }

  @Test("scan returns a Publishers.Sequence of every partial result")
  func scan() {
    let scanned: Publishers.Sequence<[Int], Never> = (0..<5).publisher.scan(0, +)
    #expect(scanned.sequence == [0, 1, 3, 6, 10])
    #expect([Int]().publisher.scan(0, +).sequence == [])
  }

  @Test("removeDuplicates drops consecutive repeats only")
  func removeDuplicates() {
    let unique: Publishers.Sequence<[Int], Never> = [0, 0, 1, 0, 1, 1, 2, 2, 3].publisher
      .removeDuplicates()
    #expect(unique.sequence == [0, 1, 0, 1, 2, 3])
  }

  @Test("replaceNil returns a Publishers.Sequence with nil replaced")
  func replaceNil() {
    let replaced: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
    #expect(replaced.sequence == [1, 0, 3])
  }

  @Test("reduce and collect return a Result.Publisher of the folded elements")
  func reduceAndCollect() {
    let reduced: Result<Int, Never>.Publisher = [1, 2, 3].publisher.reduce(0, +)
    let collected: Result<[Int], Never>.Publisher = (1...3).publisher.collect()
    #expect(reduced.result == .success(6))
    #expect(collected.result == .success([1, 2, 3]))
    #expect(reduced.record().values == [6])
  }

  @Test("tryReduce returns a Result.Publisher failing with the thrown error")
  func tryReduce() throws {
    let reduced: Result<Int, any Error>.Publisher = [1, 2].publisher.tryReduce(0, +)
    #expect(try reduced.result.get() == 3)
    let failed = [1, 2].publisher.tryReduce(0) { _, _ in throw TestError(1) }
    #expect(throws: TestError(1)) { try failed.result.get() }
  }

  @Test("contains, contains(where:) and allSatisfy return a Result.Publisher of a Bool")
  func predicates() {
    let contains: Result<Bool, Never>.Publisher = [1, 2].publisher.contains(2)
    let containsWhere: Result<Bool, Never>.Publisher = [1, 2].publisher.contains { $0 > 5 }
    let all: Result<Bool, Never>.Publisher = [1, 2].publisher.allSatisfy { $0 > 0 }
    #expect(contains.result == .success(true))
    #expect(containsWhere.result == .success(false))
    #expect(all.result == .success(true))
  }

  @Test("tryContains(where:) and tryAllSatisfy fail with the thrown error")
  func tryPredicates() throws {
    let contains: Result<Bool, any Error>.Publisher = [1, 2].publisher.tryContains { $0 == 2 }
    let all: Result<Bool, any Error>.Publisher = [1, 2].publisher.tryAllSatisfy { _ in
      throw TestError(2)
    }
    #expect(try contains.result.get())
    #expect(throws: TestError(2)) { try all.result.get() }
  }

  @Test("min, max, first(where:) return an Optional.Publisher when the failure is Never")
  func pickingOneElement() {
    let min: Optional<Int>.Publisher = [3, 1, 2].publisher.min()
    let max: Optional<Int>.Publisher = [3, 1, 2].publisher.max()
    let minBy: Optional<Int>.Publisher = [3, 1, 2].publisher.min { $0 > $1 }
    let maxBy: Optional<Int>.Publisher = [3, 1, 2].publisher.max { $0 > $1 }
    let first: Optional<Int>.Publisher = [3, 1, 2].publisher.first { $0 < 3 }
    #expect([min, max, minBy, maxBy, first].map(\.output) == [1, 3, 3, 1, 1])
    #expect([Int]().publisher.min().output == nil)
  }

  @Test("first, last, last(where:) and output(at:) return an Optional.Publisher")
  func collectionAccess() {
    let first: Optional<Int>.Publisher = [4, 5, 6].publisher.first()
    let last: Optional<Int>.Publisher = [4, 5, 6].publisher.last()
    let lastWhere: Optional<Int>.Publisher = [4, 5, 6].publisher.last { $0 < 6 }
    let atIndex: Optional<Int>.Publisher = [4, 5, 6].publisher.output(at: 1)
    #expect([first, last, lastWhere, atIndex].map(\.output) == [4, 6, 5, 5])
    #expect([4, 5, 6].publisher.output(at: 3).output == nil)
    #expect([4, 5, 6].publisher.output(at: -1).output == nil)
    let set: Set = [1]
    #expect(set.publisher.output(at: set.startIndex).output == 1)
  }

  @Test("output(in:) returns a Publishers.Sequence of the elements in range")
  func outputInRange() {
    let slice: Publishers.Sequence<[Int], Never> = [1, 2, 3, 4, 5].publisher.output(in: 1..<4)
    #expect(slice.sequence == [2, 3, 4])
  }

  @Test("output(in:) with a range beyond the collection's indices stops the program, as in Combine")
  func outputInRangeBeyondIndices() async {
    await #expect(processExitsWith: .failure) {
      _ = [1, 2, 3].publisher.output(in: 1..<5)
    }
  }

  @Test("count returns a Just for a random-access collection that cannot fail")
  func countJust() {
    let counted: Just<Int> = [1, 1, 1].publisher.count()
    #expect(counted.output == 3)
    #expect((0..<Int.max).publisher.count().output == Int.max)
  }

  @Test("count returns a Result.Publisher for other collections or failure types")
  func countResult() {
    let failing = [1, 2].publisher.setFailureType(to: TestError.self)
    let counted: Result<Int, TestError>.Publisher = failing.count()
    #expect(counted.result == .success(2))
    let setCount: Result<Int, Never>.Publisher = Set([1, 2, 3]).publisher.count()
    #expect(setCount.result == .success(3))
  }

  @Test("setFailureType returns a Publishers.Sequence of the same elements")
  func setFailureType() {
    let typed: Publishers.Sequence<[Int], TestError> = [1, 2].publisher
      .setFailureType(to: TestError.self)
    #expect(typed.sequence == [1, 2])
    #expect(typed.record().receivedCompletion == .finished)
  }

  @Test("ignoreOutput returns an Empty")
  func ignoreOutput() {
    let ignored: Empty<Int, Never> = [1, 2].publisher.ignoreOutput()
    #expect(ignored.record().events == [.subscription, .completion(.finished)])
  }

  @Test("prepend and append join elements into the same collection type")
  func prependAndAppend() {
    let prepended: Publishers.Sequence<[Int], Never> = [3, 4].publisher.prepend(1, 2)
    let prependedSequence: Publishers.Sequence<[Int], Never> = [3].publisher.prepend(1...2)
    let prependedPublisher: Publishers.Sequence<[Int], Never> = [3].publisher
      .prepend([1, 2].publisher)
    let appended: Publishers.Sequence<[Int], Never> = [1].publisher.append(2, 3)
    let appendedSequence: Publishers.Sequence<[Int], Never> = [1].publisher.append(2...3)
    let appendedPublisher: Publishers.Sequence<[Int], Never> = [1].publisher
      .append([2, 3].publisher)
    #expect(prepended.sequence == [1, 2, 3, 4])
    #expect(prependedSequence.sequence == [1, 2, 3])
    #expect(prependedPublisher.sequence == [1, 2, 3])
    #expect(appended.sequence == [1, 2, 3])
    #expect(appendedSequence.sequence == [1, 2, 3])
    #expect(appendedPublisher.sequence == [1, 2, 3])
    let text: Publishers.Sequence<String, Never> = "bc".publisher.prepend("a").append("d")
    #expect(text.sequence == "abcd")
  }

  @Test("operators run their closures once, when applied, not per subscription")
  func closuresRunEagerly() {
    var calls = 0
    let mapped = [1, 2].publisher.map { value -> Int in
      calls += 1
      return value
    }
    #expect(calls == 2)
    _ = mapped.record()
    _ = mapped.record()
    #expect(calls == 2)
  }

  @Test("map, filter and compactMap take every element of a sequence that underestimates it")
  func fusionsPastTheUnderestimatedCount() {
    let sequence = ClaimingSequence(elements: Array(1...6), claimed: 2)
    #expect(sequence.publisher.map { $0 * 10 }.sequence == [10, 20, 30, 40, 50, 60])
    #expect(sequence.publisher.filter { $0 != 2 }.sequence == [1, 3, 4, 5, 6])
    #expect(sequence.publisher.compactMap { $0 == 1 ? nil : $0 }.sequence == [2, 3, 4, 5, 6])
  }

  @Test("map, filter and compactMap stop at the end of a sequence that claims more than it has")
  func fusionsOfAnOverclaimingSequence() {
    let sequence = ClaimingSequence(elements: [1, 2, 3], claimed: 10)
    #expect(sequence.publisher.map { $0 * 10 }.sequence == [10, 20, 30])
    #expect(sequence.publisher.filter { $0 != 2 }.sequence == [1, 3])
    #expect(sequence.publisher.compactMap { $0 == 1 ? nil : $0 }.sequence == [2, 3])
  }

  @Test("filter and compactMap keeping few elements of many return arrays sized to them")
  func fewKeptElementsAreNotOverallocated() {
    let filtered = (0..<100_000).publisher.filter { $0 % 10_000 == 0 }.sequence
    let compact = (0..<100_000).publisher.compactMap { $0 == 7 ? $0 : nil }.sequence
    #expect(filtered == Array(stride(from: 0, to: 100_000, by: 10_000)))
    #expect(compact == [7])
    #expect(filtered.capacity < 1_000)
    #expect(compact.capacity < 1_000)
  }
}

/// A sequence whose `underestimatedCount` is `claimed`, whatever it holds.
private struct ClaimingSequence: Sequence {
  let elements: [Int]
  let claimed: Int

  var underestimatedCount: Int { claimed }

  func makeIterator() -> IndexingIterator<[Int]> { elements.makeIterator() }
}
