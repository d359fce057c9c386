import CombineExCore
import CombineExTesting
import Testing

/// The operators specialized on `Result.Publisher`: each test pins the result type with an
/// annotation and checks the result for a success and for a failure.
@Suite("Result.Publisher operators")
struct ResultPublisherOperatorsTests {
  typealias Sut = Result<Int, TestError>.Publisher

  @Test("map returns a Result.Publisher of the transformed value; a failure passes through")
  func map() {
    let mapped: Result<String, TestError>.Publisher = Sut(42).map { "\($0)" }
    #expect(mapped.result == .success("42"))
    #expect(Sut(TestError(1)).map { "\($0)" }.result == .failure(TestError(1)))
  }

  @Test("tryMap returns a Result.Publisher failing with the thrown or original error")
  func tryMap() throws {
    let mapped: Result<Int, any Error>.Publisher = Sut(1).tryMap { $0 + 1 }
    #expect(try mapped.result.get() == 2)
    #expect(throws: TestError(2)) { try Sut(1).tryMap { _ in throw TestError(2) }.result.get() }
    #expect(throws: TestError(3)) { try Sut(TestError(3)).tryMap { $0 }.result.get() }
  }

  @Test("mapError returns a Result.Publisher with the transformed failure")
  func mapError() {
    let mapped: Result<Int, TestCodableError>.Publisher = Sut(TestError(4)).mapError {
      TestCodableError(code: $0.id)
    }
    #expect(mapped.result == .failure(TestCodableError(code: 4)))
    #expect(Sut(1).mapError { TestCodableError(code: $0.id) }.result == .success(1))
  }

  @Test("operators that cannot change a single value return the publisher itself")
  func identities() {
    for sut in [Sut(5), Sut(TestError(5))] {
      let results: [Result<Int, TestError>.Publisher] = [
        sut.min(), sut.max(), sut.min(by: <), sut.max(by: <), sut.first(), sut.last(),
        sut.removeDuplicates(), sut.removeDuplicates(by: ==), sut.replaceEmpty(with: 0),
        sut.retry(2),
      ]
      #expect(results.allSatisfy { $0 == sut })
    }
  }

  @Test("contains, contains(where:) and allSatisfy publish a Bool, or the failure")
  func predicates() {
    let contains: Result<Bool, TestError>.Publisher = Sut(10).contains(10)
    let containsWhere: Result<Bool, TestError>.Publisher = Sut(10).contains { $0 > 10 }
    let all: Result<Bool, TestError>.Publisher = Sut(10).allSatisfy { $0 == 10 }
    #expect(contains.result == .success(true))
    #expect(containsWhere.result == .success(false))
    #expect(all.result == .success(true))
    #expect(Sut(TestError(1)).contains(10).result == .failure(TestError(1)))
  }

  @Test("tryContains(where:) and tryAllSatisfy fail with the thrown or original error")
  func tryPredicates() throws {
    let contains: Result<Bool, any Error>.Publisher = Sut(1).tryContains { $0 == 1 }
    let all: Result<Bool, any Error>.Publisher = Sut(1).tryAllSatisfy { _ in throw TestError(2) }
    #expect(try contains.result.get())
    #expect(throws: TestError(2)) { try all.result.get() }
    #expect(throws: TestError(3)) { try Sut(TestError(3)).tryAllSatisfy { _ in true }.result.get() }
  }

  @Test("tryMin, tryMax and tryRemoveDuplicates call the closure once with the value twice")
  func tryComparisons() throws {
    var calls = 0
    let comparing: (Int, Int) throws -> Bool = { lhs, rhs in
      calls += 1
      #expect(lhs == rhs)
      return true
    }
    let min: Result<Int, any Error>.Publisher = Sut(7).tryMin(by: comparing)
    let max: Result<Int, any Error>.Publisher = Sut(7).tryMax(by: comparing)
    let unique: Result<Int, any Error>.Publisher = Sut(7).tryRemoveDuplicates(by: comparing)
    #expect(try [min, max, unique].map { try $0.result.get() } == [7, 7, 7])
    #expect(calls == 3)
    #expect(throws: TestError(1)) {
      try Sut(7).tryMin { _, _ in throw TestError(1) }.result.get()
    }
  }

  @Test("collect and count publish an array and 1, or the failure")
  func collectAndCount() {
    let collected: Result<[Int], TestError>.Publisher = Sut(3).collect()
    let counted: Result<Int, TestError>.Publisher = Sut(3).count()
    #expect(collected.result == .success([3]))
    #expect(counted.result == .success(1))
    #expect(Sut(TestError(1)).count().result == .failure(TestError(1)))
  }

  @Test("replaceError returns a Result.Publisher that cannot fail")
  func replaceError() {
    let replaced: Result<Int, Never>.Publisher = Sut(TestError(1)).replaceError(with: 9)
    #expect(replaced.result == .success(9))
    #expect(Sut(1).replaceError(with: 9).result == .success(1))
  }

  @Test("reduce and scan fold the value, or pass the failure")
  func reduceAndScan() {
    let reduced: Result<Int, TestError>.Publisher = Sut(4).reduce(2, +)
    let scanned: Result<Int, TestError>.Publisher = Sut(4).scan(2, *)
    #expect(reduced.result == .success(6))
    #expect(scanned.result == .success(8))
    #expect(Sut(TestError(1)).reduce(2, +).result == .failure(TestError(1)))
  }

  @Test("tryReduce and tryScan fail with the thrown or original error")
  func tryReduceAndScan() throws {
    let reduced: Result<Int, any Error>.Publisher = Sut(4).tryReduce(2, +)
    let scanned: Result<Int, any Error>.Publisher = Sut(4).tryScan(2) { _, _ in
      throw TestError(5)
    }
    #expect(try reduced.result.get() == 6)
    #expect(throws: TestError(5)) { try scanned.result.get() }
    #expect(throws: TestError(6)) { try Sut(TestError(6)).tryReduce(0, +).result.get() }
  }

  @Test("setFailureType on a publisher that cannot fail changes only the failure type")
  func setFailureType() {
    let typed: Result<Int, TestError>.Publisher = Result<Int, Never>.success(1).publisher
      .setFailureType(to: TestError.self)
    #expect(typed.result == .success(1))
  }

  @Test("ignoreOutput returns an Empty, which finishes even for a failure, like Combine")
  func ignoreOutput() {
    let ignored: Empty<Int, TestError> = Sut(1).ignoreOutput()
    #expect(ignored.record().events == [.subscription, .completion(.finished)])
    #expect(Sut(TestError(1)).ignoreOutput().record().receivedCompletion == .finished)
  }
}
