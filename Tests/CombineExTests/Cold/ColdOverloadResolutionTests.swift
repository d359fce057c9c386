import CombineEx
import CombineExTesting
import Testing

/// Coldness adds no operator overloads: these explicit type annotations pin that operators keep
/// returning Combine's types, on plain and on cold publishers alike. If an overload for cold
/// publishers were added, these lines would stop compiling or become ambiguous.
@Suite("Cold publishers leave Combine's operator types alone")
struct ColdOverloadResolutionTests {
  @Test("map on a plain publisher still returns Publishers.Map")
  func mapOnPlainPublisher() {
    let subject = PassthroughSubject<Int, Never>()
    let mapped: Publishers.Map<PassthroughSubject<Int, Never>, String> = subject.map { "\($0)" }
    let recorder = mapped.record()
    subject.send(1)
    #expect(recorder.values == ["1"])
  }

  @Test("filter, flatMap and eraseToAnyPublisher on a plain publisher return Combine's types")
  func otherOperatorsOnPlainPublisher() {
    let subject = PassthroughSubject<Int, Never>()
    let filtered: Publishers.Filter<PassthroughSubject<Int, Never>> = subject.filter { $0 > 0 }
    let flattened: Publishers.FlatMap<Just<Int>, PassthroughSubject<Int, Never>> =
      subject.flatMap { Just($0) }
    let erased: AnyPublisher<Int, Never> = subject.eraseToAnyPublisher()
    let recorders = (filtered.record(), flattened.record(), erased.record())
    subject.send(2)
    #expect(recorders.0.values == [2])
    #expect(recorders.1.values == [2])
    #expect(recorders.2.values == [2])
  }

  @Test("map on a Deferred returns Publishers.Map over the Deferred, fused by map.map")
  func mapOnDeferred() {
    let deferred = Deferred { Just(1) }
    let mapped: Publishers.Map<Deferred<Just<Int>>, Int> = deferred.map { $0 + 1 }.map { $0 * 10 }
    #expect(mapped.record().values == [20])
  }

  @Test("map on an AnyDeferredPublisher returns Publishers.Map over it")
  func mapOnAnyDeferredPublisher() {
    let publisher = AnyDeferredPublisher<Int, Never>.just(1)
    let mapped: Publishers.Map<AnyDeferredPublisher<Int, Never>, String> = publisher.map {
      "\($0)"
    }
    #expect(mapped.record().values == ["1"])
  }

  @Test("Combine's fusions on Just and sequences are untouched")
  func fusionsUntouched() {
    let just: Just<Int> = Just(1).map { $0 + 1 }
    let sequence: Publishers.Sequence<[Int], Never> = [1, 2].publisher.map { $0 * 2 }
    #expect(just.output == 2)
    #expect(sequence.sequence == [2, 4])
  }
}
