import CombineEx
import CombineExTesting
import Testing

/// Coldness adds no operator overloads. These tests call operators the way user code does,
/// with no type context, and compare each inferred result type with Combine's. An overload
/// added for cold publishers (say a `map` on `ColdPublisher` returning `AnyDeferredPublisher`)
/// would be the one inference picks, and would change a type checked here. An annotation such
/// as `let mapped: Publishers.Map<...> = ...` would not catch it: the type checker would pick
/// whichever overload matches the annotation.
@Suite("Cold publishers leave Combine's operator types alone")
struct ColdOverloadResolutionTests {
  typealias Subject = PassthroughSubject<Int, Never>
  typealias FailingSubject = PassthroughSubject<Int, ColdTestError>
  typealias Source = Deferred<Just<Int>>
  typealias Erased = AnyDeferredPublisher<Int, Never>

  // MARK: Plain publishers

  @Test("the value operators on a subject return Combine's types, which are not cold")
  func valueOperatorsOnPlainPublisher() {
    let subject = Subject()
    let mapped = subject.map { $0 + 1 }
    let filtered = subject.filter { $0 > 0 }
    let compacted = subject.compactMap { $0 as Int? }
    let flattened = subject.flatMap { Just($0) }
    let tried = subject.tryMap { $0 }
    let deduplicated = subject.removeDuplicates()
    let scanned = subject.scan(0, +)
    #expect(type(of: mapped) == Publishers.Map<Subject, Int>.self)
    #expect(type(of: filtered) == Publishers.Filter<Subject>.self)
    #expect(type(of: compacted) == Publishers.CompactMap<Subject, Int>.self)
    #expect(type(of: flattened) == Publishers.FlatMap<Just<Int>, Subject>.self)
    #expect(type(of: tried) == Publishers.TryMap<Subject, Int>.self)
    #expect(type(of: deduplicated) == Publishers.RemoveDuplicates<Subject>.self)
    #expect(type(of: scanned) == Publishers.Scan<Subject, Int>.self)
    let results: [Any] = [mapped, filtered, compacted, flattened, tried, deduplicated, scanned]
    #expect(results.allSatisfy { !isCold($0) })
    let recorders = (mapped.record(), filtered.record(), flattened.record())
    subject.send(2)
    #expect(recorders.0.values == [3])
    #expect(recorders.1.values == [2])
    #expect(recorders.2.values == [2])
  }

  @Test("the reducing, error, scheduling and erasing operators on a subject return Combine's types")
  func otherOperatorsOnPlainPublisher() {
    let subject = Subject()
    let failing = FailingSubject()
    #expect(type(of: subject.collect()) == Publishers.Collect<Subject>.self)
    #expect(type(of: subject.first()) == Publishers.First<Subject>.self)
    #expect(type(of: subject.prefix(2)) == Publishers.Output<Subject>.self)
    #expect(type(of: subject.handleEvents()) == Publishers.HandleEvents<Subject>.self)
    #expect(
      type(of: subject.receive(on: ImmediateScheduler.shared))
        == Publishers.ReceiveOn<Subject, ImmediateScheduler>.self)
    #expect(
      type(of: failing.mapError { $0 }) == Publishers.MapError<FailingSubject, ColdTestError>.self)
    #expect(
      type(of: failing.catch { _ in Just(0) }) == Publishers.Catch<FailingSubject, Just<Int>>.self)
    #expect(type(of: failing.retry(1)) == Publishers.Retry<FailingSubject>.self)
    #expect(type(of: subject.eraseToAnyPublisher()) == AnyPublisher<Int, Never>.self)
  }

  @Test("Combine's fusions still apply: map.map is one Map, filter.filter one Filter")
  func fusionsOnPlainPublisher() {
    let subject = Subject()
    let mapped = subject.map { $0 + 1 }.map { $0 * 10 }
    let filtered = subject.filter { $0 > 0 }.filter { $0 < 10 }
    #expect(type(of: mapped) == Publishers.Map<Subject, Int>.self)
    #expect(type(of: filtered) == Publishers.Filter<Subject>.self)
    let recorders = (mapped.record(), filtered.record())
    subject.send(2)
    subject.send(20)
    #expect(recorders.0.values == [30, 210])
    #expect(recorders.1.values == [2])
  }

  @Test("Combine's fusions on Just and sequences are untouched")
  func fusionsOnValueSources() {
    let just = Just(1).map { $0 + 1 }
    let sequence = [1, 2].publisher.map { $0 * 2 }
    #expect(type(of: just) == Just<Int>.self)
    #expect(type(of: sequence) == Publishers.Sequence<[Int], Never>.self)
    #expect(just.output == 2)
    #expect(sequence.sequence == [2, 4])
  }

  // MARK: Deferred

  @Test("the value operators on a Deferred return Combine's types, cold and erasable")
  func valueOperatorsOnDeferred() {
    let deferred = Deferred { Just(1) }
    let mapped = deferred.map { $0 + 1 }
    let filtered = deferred.filter { $0 > 0 }
    let compacted = deferred.compactMap { $0 as Int? }
    let flattened = deferred.flatMap { Just($0 * 10) }
    let deduplicated = deferred.removeDuplicates()
    let scanned = deferred.scan(0, +)
    #expect(type(of: mapped) == Publishers.Map<Source, Int>.self)
    #expect(type(of: filtered) == Publishers.Filter<Source>.self)
    #expect(type(of: compacted) == Publishers.CompactMap<Source, Int>.self)
    #expect(type(of: flattened) == Publishers.FlatMap<Just<Int>, Source>.self)
    #expect(type(of: deduplicated) == Publishers.RemoveDuplicates<Source>.self)
    #expect(type(of: scanned) == Publishers.Scan<Source, Int>.self)
    // Each result is still cold, so it erases to AnyDeferredPublisher without re-wrapping.
    let erased = [
      mapped.eraseToAnyDeferredPublisher(), filtered.eraseToAnyDeferredPublisher(),
      compacted.eraseToAnyDeferredPublisher(), flattened.eraseToAnyDeferredPublisher(),
      deduplicated.eraseToAnyDeferredPublisher(), scanned.eraseToAnyDeferredPublisher(),
    ]
    #expect(erased.map { $0.record().values } == [[2], [1], [1], [10], [1], [1]])
  }

  @Test("the reducing, error and scheduling operators on a Deferred return Combine's types")
  func otherOperatorsOnDeferred() {
    let deferred = Deferred { Just(1) }
    let failing = Deferred { Fail<Int, ColdTestError>(error: ColdTestError(1)) }
    typealias FailingSource = Deferred<Fail<Int, ColdTestError>>
    let collected = deferred.collect()
    let first = deferred.first()
    let prefixed = deferred.prefix(2)
    let scheduled = deferred.receive(on: ImmediateScheduler.shared)
    let caught = failing.catch { _ in Just(0) }
    let retried = failing.retry(1)
    let mappedError = failing.mapError { $0 }
    #expect(type(of: collected) == Publishers.Collect<Source>.self)
    #expect(type(of: first) == Publishers.First<Source>.self)
    #expect(type(of: prefixed) == Publishers.Output<Source>.self)
    #expect(type(of: scheduled) == Publishers.ReceiveOn<Source, ImmediateScheduler>.self)
    #expect(type(of: caught) == Publishers.Catch<FailingSource, Just<Int>>.self)
    #expect(type(of: retried) == Publishers.Retry<FailingSource>.self)
    #expect(type(of: mappedError) == Publishers.MapError<FailingSource, ColdTestError>.self)
    #expect(collected.eraseToAnyDeferredPublisher().record().values == [[1]])
    #expect(first.eraseToAnyDeferredPublisher().record().values == [1])
    #expect(prefixed.eraseToAnyDeferredPublisher().record().values == [1])
    #expect(scheduled.eraseToAnyDeferredPublisher().record().values == [1])
    #expect(caught.eraseToAnyDeferredPublisher().record().values == [0])
    #expect(
      retried.eraseToAnyDeferredPublisher().record().receivedCompletion
        == .failure(ColdTestError(1)))
    #expect(
      mappedError.eraseToAnyDeferredPublisher().record().receivedCompletion
        == .failure(ColdTestError(1)))
  }

  @Test("a chain on a Deferred keeps Combine's types, fused where Combine fuses")
  func chainOnDeferred() {
    let chain = Deferred { Just(1) }.map { $0 + 1 }.map { $0 * 10 }.filter { $0 > 0 }
    #expect(type(of: chain) == Publishers.Filter<Publishers.Map<Source, Int>>.self)
    #expect(chain.eraseToAnyDeferredPublisher().record().values == [20])
  }

  // MARK: AnyDeferredPublisher

  @Test("the value operators on an AnyDeferredPublisher return Combine's types, cold and erasable")
  func valueOperatorsOnAnyDeferredPublisher() {
    let publisher = Erased.just(1)
    let mapped = publisher.map { $0 + 1 }
    let filtered = publisher.filter { $0 > 0 }
    let compacted = publisher.compactMap { $0 as Int? }
    let flattened = publisher.flatMap { Erased.just($0 * 10) }
    let deduplicated = publisher.removeDuplicates()
    let collected = publisher.collect()
    #expect(type(of: mapped) == Publishers.Map<Erased, Int>.self)
    #expect(type(of: filtered) == Publishers.Filter<Erased>.self)
    #expect(type(of: compacted) == Publishers.CompactMap<Erased, Int>.self)
    #expect(type(of: flattened) == Publishers.FlatMap<Erased, Erased>.self)
    #expect(type(of: deduplicated) == Publishers.RemoveDuplicates<Erased>.self)
    #expect(type(of: collected) == Publishers.Collect<Erased>.self)
    let erased = [
      mapped.eraseToAnyDeferredPublisher(), filtered.eraseToAnyDeferredPublisher(),
      compacted.eraseToAnyDeferredPublisher(), flattened.eraseToAnyDeferredPublisher(),
      deduplicated.eraseToAnyDeferredPublisher(),
    ]
    #expect(erased.map { $0.record().values } == [[2], [1], [1], [10], [1]])
    #expect(collected.eraseToAnyDeferredPublisher().record().values == [[1]])
  }

  @Test("erasing an AnyDeferredPublisher, to either eraser, returns the eraser's type")
  func erasingAnyDeferredPublisher() {
    let publisher = Erased.just(1)
    #expect(type(of: publisher.eraseToAnyDeferredPublisher()) == Erased.self)
    #expect(type(of: publisher.eraseToAnyPublisher()) == AnyPublisher<Int, Never>.self)
  }

  // MARK: DeferredFuture

  @Test("multi-value operators on a DeferredFuture are Combine's, cold and erasable")
  func multiValueOperatorsOnDeferredFuture() {
    typealias Future = DeferredFuture<Int, Never>
    let future = Future.just(3)
    let filtered = future.filter { $0 > 0 }
    let collected = future.collect()
    let scanned = future.scan(0, +)
    #expect(type(of: filtered) == Publishers.Filter<Future>.self)
    #expect(type(of: collected) == Publishers.Collect<Future>.self)
    #expect(type(of: scanned) == Publishers.Scan<Future, Int>.self)
    #expect(filtered.eraseToAnyDeferredPublisher().record().values == [3])
    #expect(collected.eraseToAnyDeferredPublisher().record().values == [[3]])
    #expect(scanned.eraseToAnyDeferredPublisher().record().values == [3])
  }
}
