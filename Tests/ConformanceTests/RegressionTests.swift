import CombineEx
import CombineExStore
import CombineExTesting
import Foundation
import Testing

/// One test per bug the conformance suite found, so that each stays fixed even if the generic
/// scenarios change.
@Suite("conformance regressions")
struct RegressionTests {
  /// A subscriber that cancels from inside `receive(_:)` of its first value.
  private func cancellingAtFirstValue<Input, Failure>(
    _: Input.Type = Input.self, _: Failure.Type = Failure.self
  ) -> Probe<Input, Failure> {
    Probe(behaviour: ProbeBehaviour(cancelAtValue: 1))
  }

  @Test("Just sends no completion to a subscriber that cancels while receiving its value")
  func justCancelInsideReceive() {
    let probe = cancellingAtFirstValue(Int.self, Never.self)
    Just(1).subscribe(probe)
    #expect(probe.events == ["v:1"])
    #expect(probe.violations.isEmpty)
  }

  @Test("reducing operators send no completion after a cancel from inside receive of the result")
  func reducingOperatorsCancelInsideReceive() {
    let subject = PassthroughSubject<Int, Never>()
    let reduce = cancellingAtFirstValue(Int.self, Never.self)
    let count = cancellingAtFirstValue(Int.self, Never.self)
    let first = cancellingAtFirstValue(Int.self, Never.self)
    let contains = cancellingAtFirstValue(Bool.self, Never.self)
    subject.reduce(0, +).subscribe(reduce)
    subject.count().subscribe(count)
    subject.first().subscribe(first)
    subject.contains(2).subscribe(contains)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(reduce.events == ["v:2"])
    #expect(count.events == ["v:1"])
    #expect(first.events == ["v:2"])
    #expect(contains.events == ["v:true"])
    #expect((reduce.violations + count.violations + first.violations).isEmpty)
    #expect(contains.violations.isEmpty)
  }

  @Test("a reducing operator whose result waited for demand sends no completion after a cancel")
  func reducingOperatorPendingResultCancelInsideReceive() {
    let probe = Probe<Int, Never>(behaviour: ProbeBehaviour(initialDemand: .none, cancelAtValue: 1))
    [1, 2, 3].publisher.reduce(0, +).subscribe(probe)
    probe.request(.max(1))
    #expect(probe.events == ["v:6"])
    #expect(probe.violations.isEmpty)
  }

  @Test("collect(count) sends no completion after a cancel from inside receive of the last array")
  func collectByCountCancelInsideLastArray() {
    let probe = cancellingAtFirstValue([Int].self, Never.self)
    [1].publisher.collect(2).subscribe(probe)
    #expect(probe.events == ["v:[1]"])
    #expect(probe.violations.isEmpty)
  }

  @Test("replaceEmpty sends no completion after a cancel from inside receive of the replacement")
  func replaceEmptyCancelInsideReplacement() {
    let probe = cancellingAtFirstValue(Int.self, Never.self)
    Empty<Int, Never>().replaceEmpty(with: 9).subscribe(probe)
    #expect(probe.events == ["v:9"])
    #expect(probe.violations.isEmpty)
  }

  @Test("replaceError sends no completion after a cancel from inside receive of the replacement")
  func replaceErrorCancelInsideReplacement() {
    let probe = cancellingAtFirstValue(Int.self, Never.self)
    Fail<Int, ConformanceError>(error: ConformanceError(1)).replaceError(with: 9).subscribe(probe)
    #expect(probe.events == ["v:9"])
    #expect(probe.violations.isEmpty)
  }

  @Test(
    "publishers that complete at once send nothing to a subscriber that cancels on subscription")
  func immediateCompletionsRespectCancelInSubscription() {
    func cancelling<Input, Failure>(_: Input.Type, _: Failure.Type) -> Probe<Input, Failure> {
      Probe(behaviour: ProbeBehaviour(cancelInSubscription: true))
    }
    let empty = cancelling(Int.self, Never.self)
    let fail = cancelling(Int.self, ConformanceError.self)
    let emptySequence = cancelling(Int.self, Never.self)
    let completedSubject = cancelling(Int.self, Never.self)
    let completedCurrentValueSubject = cancelling(Int.self, Never.self)
    Empty<Int, Never>().subscribe(empty)
    Fail<Int, ConformanceError>(error: ConformanceError(1)).subscribe(fail)
    [Int]().publisher.subscribe(emptySequence)
    let subject = PassthroughSubject<Int, Never>()
    subject.send(completion: .finished)
    subject.subscribe(completedSubject)
    let currentValueSubject = CurrentValueSubject<Int, Never>(0)
    currentValueSubject.send(completion: .finished)
    currentValueSubject.subscribe(completedCurrentValueSubject)
    for probe in [empty, emptySequence, completedSubject, completedCurrentValueSubject] {
      #expect(probe.events.isEmpty)
      #expect(probe.violations.isEmpty)
    }
    #expect(fail.events.isEmpty)
    #expect(fail.violations.isEmpty)
  }

  @Test("publishers that complete at once still complete a subscriber that does not cancel")
  func immediateCompletionsStillComplete() {
    let empty = Empty<Int, Never>().record()
    let fail = Fail<Int, ConformanceError>(error: ConformanceError(1)).record()
    let subject = PassthroughSubject<Int, Never>()
    subject.send(completion: .finished)
    let late = subject.record()
    #expect(empty.receivedCompletion == .finished)
    #expect(fail.receivedCompletion == .failure(ConformanceError(1)))
    #expect(late.receivedCompletion == .finished)
  }

  @Test(
    "prefix(n) passes on a completion that comes after its last value, as Combine's does"
  )
  func prefixPassesOnCompletionAfterItsLastValue() {
    // Found by random chains, seed 1186: the request made from inside `receive(_:)` of the
    // last value reaches a synchronous upstream, which fails. As in Combine, prefix(n) ends
    // only at the element after its range, so that failure is passed on, once.
    let source = ScriptedSource<Int, ConformanceError>(
      label: "upstream", script: SourceScript(values: [3, 1], end: .failure(8)),
      delivery: .synchronousNested, releasesSubscribers: true, makeValue: { $0 },
      makeFailure: ConformanceError.init)
    let probe = Probe<Int, ConformanceError>(
      behaviour: ProbeBehaviour(
        initialDemand: .max(1), demandAfterValue: [1], mode: .requestedInside))
    source.prefix(2).subscribe(probe)
    #expect(probe.events == ["v:3", "v:1", "failure:E8"])
    #expect(source.subscriptionStatuses == [.completed])
    #expect(probe.violations.isEmpty)
  }

  @Test("Future sends no completion to a subscriber that cancels while receiving its value")
  func futureCancelInsideReceive() {
    let resolved = Future<Int, Never> { $0(.success(1)) }
    let early = cancellingAtFirstValue(Int.self, Never.self)
    resolved.subscribe(early)
    var fulfil: Future<Int, Never>.Promise?
    let later = Future<Int, Never> { fulfil = $0 }
    let waiting = cancellingAtFirstValue(Int.self, Never.self)
    later.subscribe(waiting)
    fulfil?(.success(2))
    #expect(early.events == ["v:1"])
    #expect(waiting.events == ["v:2"])
    #expect(early.violations.isEmpty && waiting.violations.isEmpty)
  }

  @Test(
    "Result.Publisher and Optional.Publisher send nothing to a subscriber that cancels on subscription"
  )
  func resultAndOptionalPublishersRespectCancelInSubscription() {
    let failure = Probe<Int, ConformanceError>(
      behaviour: ProbeBehaviour(cancelInSubscription: true))
    let none = Probe<Int, Never>(behaviour: ProbeBehaviour(cancelInSubscription: true))
    Result<Int, ConformanceError>.failure(ConformanceError(1)).publisher.subscribe(failure)
    Int?.none.publisher.subscribe(none)
    #expect(failure.events.isEmpty && none.events.isEmpty)
    #expect(failure.violations.isEmpty && none.violations.isEmpty)
  }

  @Test("prefix(during:) an ended lifetime delivers nothing, even from a synchronous upstream")
  func prefixDuringEndedLifetime() {
    let recorder = [1, 2, 3].publisher.prefix(during: Lifetime.ended).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
    let cancelling = Probe<Int, Never>(behaviour: ProbeBehaviour(cancelInSubscription: true))
    [1, 2, 3].publisher.prefix(during: Lifetime.ended).subscribe(cancelling)
    #expect(cancelling.events.isEmpty && cancelling.violations.isEmpty)
  }

  @Test(
    "cancelling a multicast connection that holds the last reference to the subject does not deadlock"
  )
  func multicastConnectionReleasesSubjectOutsideItsLock() async {
    let finished = await finishesInTime(.seconds(10)) {
      let upstream = PassthroughSubject<Int, Never>()
      var connectable: Publishers.MakeConnectable<PassthroughSubject<Int, Never>>? =
        upstream.makeConnectable()
      let connection = connectable?.connect()
      connectable = nil
      // The connection now holds the only reference to the subject, whose deinit cancels its
      // upstream: the connection itself.
      connection?.cancel()
    }
    #expect(finished)
  }

  @Test("DeferredFuture sends no completion to a subscriber that cancels while receiving its value")
  func deferredFutureCancelInsideReceive() {
    let probe = cancellingAtFirstValue(Int.self, Never.self)
    DeferredFuture<Int, Never> { $0(.success(1)) }.subscribe(probe)
    #expect(probe.events == ["v:1"])
    #expect(probe.violations.isEmpty)
  }

  @Test(
    "zip and combineLatest of deferred futures send no completion after a cancel inside receive"
  )
  func deferredFuturePairCancelInsideReceive() {
    let zipped = cancellingAtFirstValue((Int, Int).self, Never.self)
    let combined = cancellingAtFirstValue((Int, Int).self, Never.self)
    let first = DeferredFuture<Int, Never> { $0(.success(1)) }
    let second = DeferredFuture<Int, Never> { $0(.success(2)) }
    first.zip(second).subscribe(zipped)
    first.combineLatest(second).subscribe(combined)
    for probe in [zipped, combined] {
      #expect(probe.events.count == 1 && probe.events.allSatisfy { $0.hasPrefix("v:") })
      #expect(probe.violations.isEmpty)
    }
  }

  @Test("Effect.throttle publishes one value per window, even when one effect sends several")
  func effectThrottleOnePerWindow() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = Effect(subject)
      .throttle(id: EffectID.next(), for: .seconds(1), scheduler: scheduler, latest: true)
      .sink { received.append($0) }
    subject.send(1)
    subject.send(2)
    subject.send(3)
    scheduler.advance(by: .seconds(1))
    #expect(received == [1, 3])
    subject.send(4)
    subject.send(5)
    scheduler.advance(by: .seconds(1))
    #expect(received == [1, 3, 5])
    cancellable.cancel()
  }
}
