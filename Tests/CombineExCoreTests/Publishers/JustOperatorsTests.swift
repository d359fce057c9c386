import CombineExCore
import CombineExTesting
import Testing

/// The operators specialized on `Just`: each test pins the result type with an annotation
/// (a wrong type does not compile) and checks what the result publishes.
@Suite("Just operators")
struct JustOperatorsTests {
  @Test("map returns a Just with the transformed value")
  func map() {
    let mapped: Just<String> = Just(21).map { "\($0 * 2)" }
    #expect(mapped.output == "42")
    #expect(mapped.record().values == ["42"])
  }

  @Test("tryMap returns a Result.Publisher: the value, or the thrown error")
  func tryMap() throws {
    let mapped: Result<Int, any Error>.Publisher = Just(1).tryMap { $0 + 1 }
    #expect(try mapped.result.get() == 2)
    let failed: Result<Int, any Error>.Publisher = Just(1).tryMap { _ in throw TestError(1) }
    #expect(throws: TestError(1)) { try failed.result.get() }
  }

  @Test("compactMap and filter return an Optional.Publisher")
  func compactMapAndFilter() {
    let kept: Optional<Int>.Publisher = Just("3").compactMap { Int($0) }
    let dropped: Optional<Int>.Publisher = Just("x").compactMap { Int($0) }
    #expect(kept.output == 3)
    #expect(dropped.output == nil)
    let passing: Optional<Int>.Publisher = Just(4).filter { $0 > 3 }
    #expect(passing.output == 4)
    #expect(Just(2).filter { $0 > 3 }.output == nil)
  }

  @Test("operators that cannot change a single value return the Just itself")
  func identities() {
    let just = Just(5)
    let results: [Just<Int>] = [
      just.min(), just.max(), just.min(by: <), just.max(by: <), just.first(), just.last(),
      just.removeDuplicates(), just.removeDuplicates(by: ==), just.replaceError(with: 0),
      just.replaceEmpty(with: 0), just.retry(3),
    ]
    #expect(results.allSatisfy { $0 == just })
  }

  @Test("min(by:), max(by:) and removeDuplicates(by:) do not call their closure")
  func closuresNotCalled() {
    var calls = 0
    let counting: (Int, Int) -> Bool = { _, _ in
      calls += 1
      return true
    }
    _ = Just(1).min(by: counting)
    _ = Just(1).max(by: counting)
    _ = Just(1).removeDuplicates(by: counting)
    #expect(calls == 0)
  }

  @Test("contains, contains(where:) and allSatisfy return a Just<Bool>")
  func predicates() {
    let contains: Just<Bool> = Just(1).contains(1)
    let containsWhere: Just<Bool> = Just(1).contains { $0 > 1 }
    let all: Just<Bool> = Just(1).allSatisfy { $0 == 1 }
    #expect(contains.output)
    #expect(!Just(1).contains(2).output)
    #expect(!containsWhere.output)
    #expect(all.output)
  }

  @Test("tryContains(where:) and tryAllSatisfy return a Result.Publisher")
  func tryPredicates() throws {
    let contains: Result<Bool, any Error>.Publisher = Just(1).tryContains { $0 == 1 }
    let all: Result<Bool, any Error>.Publisher = Just(1).tryAllSatisfy { _ in
      throw TestError(2)
    }
    #expect(try contains.result.get())
    #expect(throws: TestError(2)) { try all.result.get() }
  }

  @Test("collect returns a Just of a one-element array, count a Just of 1")
  func collectAndCount() {
    let collected: Just<[Int]> = Just(7).collect()
    let counted: Just<Int> = Just(7).count()
    #expect(collected.output == [7])
    #expect(counted.output == 1)
  }

  @Test("dropFirst, drop(while:), first(where:) and last(where:) return an Optional.Publisher")
  func droppingAndFinding() {
    let dropped: Optional<Int>.Publisher = Just(1).dropFirst()
    #expect(dropped.output == nil)
    #expect(Just(1).dropFirst(0).output == 1)
    #expect(Just(1).dropFirst(3).output == nil)
    let dropWhile: Optional<Int>.Publisher = Just(1).drop { $0 > 0 }
    #expect(dropWhile.output == nil)
    #expect(Just(1).drop { $0 > 1 }.output == 1)
    let first: Optional<Int>.Publisher = Just(1).first { $0 == 1 }
    let last: Optional<Int>.Publisher = Just(1).last { $0 == 2 }
    #expect(first.output == 1)
    #expect(last.output == nil)
  }

  @Test("output(at:) and output(in:) return an Optional.Publisher, like Combine")
  func output() {
    let atZero: Optional<Int>.Publisher = Just(12).output(at: 0)
    #expect(atZero.output == 12)
    #expect(Just(12).output(at: 1).output == nil)
    let inRange: Optional<Int>.Publisher = Just(12).output(in: 0..<10)
    #expect(inRange.output == 12)
    #expect(Just(12).output(in: 1..<10).output == nil)
    #expect(Just(12).output(in: -10..<10).output == nil)
    #expect(Just(12).output(in: 0...0).output == 12)
    // Combine checks only the lower bound, so an empty range at 0 keeps the value.
    #expect(Just(12).output(in: 0..<0).output == 12)
  }

  @Test("prefix and prefix(while:) return an Optional.Publisher")
  func prefix() {
    let none: Optional<Int>.Publisher = Just(9).prefix(0)
    #expect(none.output == nil)
    #expect(Just(9).prefix(1).output == 9)
    let whilePassing: Optional<Int>.Publisher = Just(9).prefix { $0 < 10 }
    #expect(whilePassing.output == 9)
    #expect(Just(9).prefix { $0 < 5 }.output == nil)
  }

  @Test("a negative count, index or length stops the program")
  func negativeArguments() async {
    await #expect(processExitsWith: .failure) { _ = Just(1).dropFirst(-1) }
    await #expect(processExitsWith: .failure) { _ = Just(1).output(at: -1) }
    await #expect(processExitsWith: .failure) { _ = Just(1).prefix(-1) }
  }

  @Test("setFailureType and mapError return a Result.Publisher with the new failure")
  func failureType() {
    let typed: Result<Int, TestError>.Publisher = Just(1).setFailureType(to: TestError.self)
    let mapped: Result<Int, TestError>.Publisher = Just(1).mapError { _ -> TestError in }
    #expect(typed.result == .success(1))
    #expect(mapped.result == .success(1))
  }

  @Test("tryRemoveDuplicates calls the predicate once with the value on both sides")
  func tryRemoveDuplicates() throws {
    var arguments: [(Int, Int)] = []
    let kept: Result<Int, any Error>.Publisher = Just(3).tryRemoveDuplicates {
      arguments.append(($0, $1))
      return false
    }
    #expect(try kept.result.get() == 3)
    #expect(arguments.map { [$0.0, $0.1] } == [[3, 3]])
    let failed = Just(3).tryRemoveDuplicates { _, _ in throw TestError(3) }
    #expect(throws: TestError(3)) { try failed.result.get() }
  }

  @Test("reduce and scan return a Result.Publisher that cannot fail")
  func reduceAndScan() {
    let reduced: Result<Int, Never>.Publisher = Just(4).reduce(2, +)
    let scanned: Result<Int, Never>.Publisher = Just(4).scan(2, *)
    #expect(reduced.result == .success(6))
    #expect(scanned.result == .success(8))
  }

  @Test("tryReduce and tryScan return a Result.Publisher: the value, or the thrown error")
  func tryReduceAndScan() throws {
    let reduced: Result<Int, any Error>.Publisher = Just(4).tryReduce(2, +)
    let scanned: Result<Int, any Error>.Publisher = Just(4).tryScan(2) { _, _ in
      throw TestError(4)
    }
    #expect(try reduced.result.get() == 6)
    #expect(throws: TestError(4)) { try scanned.result.get() }
  }

  @Test("ignoreOutput returns an Empty that finishes")
  func ignoreOutput() {
    let ignored: Empty<Int, Never> = Just(1).ignoreOutput()
    #expect(ignored.completeImmediately)
    #expect(ignored.record().events == [.subscription, .completion(.finished)])
  }

  @Test("prepend and append return a Publishers.Sequence")
  func prependAndAppend() {
    let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2)
    let prependedSequence: Publishers.Sequence<[Int], Never> = Just(3).prepend(0..<2)
    let appended: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)
    let appendedSequence: Publishers.Sequence<[Int], Never> = Just(1).append(2...3)
    #expect(prepended.sequence == [1, 2, 3])
    #expect(prependedSequence.sequence == [0, 1, 3])
    #expect(appended.sequence == [1, 2, 3])
    #expect(appendedSequence.record().values == [1, 2, 3])
  }

  @Test("closures run once, when the operator is applied, not per subscription")
  func closuresRunEagerly() {
    var calls = 0
    let mapped = Just(1).map { value -> Int in
      calls += 1
      return value
    }
    #expect(calls == 1)
    _ = mapped.record()
    _ = mapped.record()
    #expect(calls == 1)
  }
}
