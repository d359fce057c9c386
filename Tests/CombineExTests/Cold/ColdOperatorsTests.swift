import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("Cold publishers through operators")
struct ColdOperatorsTests {
  @Test("map, filter and flatMap on a Deferred erase to AnyDeferredPublisher and stay cold")
  func mapFilterFlatMapStayCold() {
    let counter = RunCounter()
    let inner = RunCounter()
    let publisher: AnyDeferredPublisher<String, Never> = countingDeferred(
      [1, 2, 3, 4], counter: counter
    )
    .map { $0 * 10 }
    .filter { $0 > 10 }
    .flatMap { value in
      AnyDeferredPublisher<String, Never> {
        inner.increment()
        return Just("#\(value)")
      }
    }
    .eraseToAnyDeferredPublisher()
    #expect(counter.value == 0)
    #expect(inner.value == 0)
    #expect(publisher.record().values == ["#20", "#30", "#40"])
    #expect(counter.value == 1)
    #expect(inner.value == 3)
    #expect(publisher.record().values == ["#20", "#30", "#40"])
    #expect(counter.value == 2)
    #expect(inner.value == 6)
  }

  @Test("operators on an AnyDeferredPublisher erase back to AnyDeferredPublisher")
  func operatorsOnAnyDeferredPublisher() {
    let counter = RunCounter()
    let source = countingDeferred([1, 2, 2, 3], counter: counter).eraseToAnyDeferredPublisher()
    let publisher: AnyDeferredPublisher<[Int], Never> =
      source
      .removeDuplicates()
      .map { $0 + 1 }
      .collect()
      .eraseToAnyDeferredPublisher()
    #expect(publisher.record().values == [[2, 3, 4]])
    #expect(publisher.record().values == [[2, 3, 4]])
    #expect(counter.value == 2)
  }

  @Test("a chain of the common value operators stays cold: one run per subscription")
  func commonValueOperators() {
    let counter = RunCounter()
    let publisher: AnyDeferredPublisher<Int, Never> = countingDeferred(
      [3, 1, 4, 1, 5, 9, 2, 6], failure: ColdTestError.self, counter: counter
    )
    .tryMap { $0 }
    .compactMap { $0 as Int? }
    .tryFilter { _ in true }
    .mapError { _ in ColdTestError(1) }
    .removeDuplicates()
    .scan(0, +)
    .dropFirst()
    .prefix(5)
    .handleEvents(receiveOutput: { _ in })
    .catch { _ in Empty<Int, ColdTestError>() }
    .replaceError(with: -1)
    .merge(with: AnyDeferredPublisher<Int, Never>.just(100))
    .append(200)
    .prepend(0)
    .reduce(0, +)
    .eraseToAnyDeferredPublisher()
    #expect(counter.value == 0)
    // scan: 3, 4, 8, 9, 14, 23, 25, 31; dropFirst, prefix(5): 4, 8, 9, 14, 23 (sum 58)
    #expect(publisher.record().values == [58 + 100 + 200])
    #expect(publisher.record().values == [358])
    #expect(counter.value == 2)
  }

  @Test("first, last, collect(count) and count stay cold")
  func reducingOperators() {
    let counter = RunCounter()
    let source = countingDeferred([1, 2, 3, 4, 5], counter: counter)
    let first = source.first().eraseToAnyDeferredPublisher()
    let last = source.last().eraseToAnyDeferredPublisher()
    let pairs = source.collect(2).eraseToAnyDeferredPublisher()
    let count = source.count().eraseToAnyDeferredPublisher()
    let firstEven = source.first { $0 % 2 == 0 }.eraseToAnyDeferredPublisher()
    #expect(counter.value == 0)
    #expect(first.record().values == [1])
    #expect(last.record().values == [5])
    #expect(pairs.record().values == [[1, 2], [3, 4], [5]])
    #expect(count.record().values == [5])
    #expect(firstEven.record().values == [2])
    #expect(counter.value == 5)
  }

  @Test("retry re-runs the factory for each attempt")
  func retryRerunsFactory() {
    let counter = RunCounter()
    let publisher = Deferred { () -> AnyPublisher<Int, ColdTestError> in
      let attempt = counter.increment()
      return attempt < 3
        ? Fail(error: ColdTestError(attempt)).eraseToAnyPublisher()
        : Just(attempt).setFailureType(to: ColdTestError.self).eraseToAnyPublisher()
    }
    .retry(2)
    .eraseToAnyDeferredPublisher()
    #expect(counter.value == 0)
    #expect(publisher.record().values == [3])
    #expect(counter.value == 3)
  }

  @Test("the scheduler operators stay cold: each subscription schedules its own run")
  func schedulerOperators() {
    let scheduler = DispatchQueue.test
    let counter = RunCounter()
    // The source never finishes, so that debounce delivers its value and timeout ends the run.
    let publisher: AnyDeferredPublisher<Int, Never> = countingDeferred([1, 2], counter: counter)
      .append(Empty(completeImmediately: false))
      .subscribe(on: scheduler)
      .receive(on: scheduler)
      .delay(for: .seconds(1), scheduler: scheduler)
      .debounce(for: .seconds(1), scheduler: scheduler)
      .throttle(for: .seconds(1), scheduler: scheduler, latest: true)
      .timeout(.seconds(10), scheduler: scheduler)
      .eraseToAnyDeferredPublisher()
    let first = publisher.record()
    #expect(counter.value == 0)
    scheduler.advance(by: .seconds(5))
    #expect(counter.value == 1)
    #expect(first.values == [2])
    scheduler.advance(by: .seconds(10))
    #expect(first.receivedCompletion == .finished)
    let second = publisher.record()
    scheduler.advance(by: .seconds(5))
    #expect(counter.value == 2)
    #expect(second.values == [2])
  }

  @Test("merging two cold publishers is cold; every subscription runs both")
  func mergeIsCold() {
    let left = RunCounter()
    let right = RunCounter()
    let merged = countingDeferred([1], counter: left)
      .merge(with: countingDeferred([2], counter: right))
      .eraseToAnyDeferredPublisher()
    #expect(merged.record().values == [1, 2])
    #expect(merged.record().values == [1, 2])
    #expect(left.value == 2)
    #expect(right.value == 2)
  }

  @Test("publishers that replay fixed values are cold")
  func replayingSourcesAreCold() {
    #expect(Just(1).eraseToAnyDeferredPublisher().record().values == [1])
    #expect([1, 2].publisher.eraseToAnyDeferredPublisher().record().values == [1, 2])
    #expect(Optional(3).publisher.eraseToAnyDeferredPublisher().record().values == [3])
    #expect(
      Result<Int, ColdTestError>.success(4).publisher.eraseToAnyDeferredPublisher().record()
        .values == [4])
    #expect(
      Record<Int, Never>(output: [5], completion: .finished).eraseToAnyDeferredPublisher()
        .record().values == [5])
    #expect(Empty<Int, Never>().eraseToAnyDeferredPublisher().record().values == [])
    #expect(
      Fail<Int, ColdTestError>(error: ColdTestError(6)).eraseToAnyDeferredPublisher().record()
        .receivedCompletion == .failure(ColdTestError(6)))
  }

  @Test("cold: Deferred, AnyDeferredPublisher, value sources and operators over them")
  func coldConformances() {
    let deferred = Deferred { Just(1) }
    #expect(isCold(deferred))
    #expect(isCold(deferred.eraseToAnyDeferredPublisher()))
    #expect(isCold(deferred.map { $0 }.filter { $0 > 0 }))
    #expect(isCold(deferred.flatMap { Just($0) }))
    #expect(isCold(deferred.merge(with: Just(2))))
    #expect(isCold(deferred.append(3)))
    #expect(isCold(Just(1)))
    #expect(isCold([1].publisher))
  }

  @Test("not cold: subjects, Future, AnyPublisher, properties, connectables, hot upstreams")
  func hotPublishersAreNotCold() {
    let subject = PassthroughSubject<Int, Never>()
    let deferred = Deferred { Just(1) }
    #expect(!isCold(subject))
    #expect(!isCold(CurrentValueSubject<Int, Never>(0)))
    #expect(!isCold(Future<Int, Never> { $0(.success(1)) }))
    #expect(!isCold(deferred.eraseToAnyPublisher()))
    #expect(!isCold(MutableProperty(0)))
    #expect(!isCold(Property(value: 0)))
    #expect(!isCold(deferred.makeConnectable()))
    #expect(!isCold(deferred.makeConnectable().autoconnect()))
    #expect(!isCold(subject.map { $0 }))
    #expect(!isCold(deferred.merge(with: subject)))
    #expect(!isCold(subject.flatMap { _ in deferred }))
  }
}
