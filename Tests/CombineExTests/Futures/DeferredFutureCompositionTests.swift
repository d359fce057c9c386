import CombineEx
import CombineExTesting
import Foundation
import Testing

/// A chain of single-value operators on futures made from work runs as one subscription (the
/// operators compose the work): these pin that it keeps the semantics of one subscription per
/// stage.
@Suite("DeferredFuture composition")
struct DeferredFutureCompositionTests {
  // MARK: Running

  @Test("a composed chain runs each future's work once per subscription")
  func eachStageRunsOncePerSubscription() {
    let first = FuturesCounter()
    let second = FuturesCounter()
    let chain = DeferredFuture<Int, Never> { promise in promise(.success(first.increment())) }
      .map { $0 * 10 }
      .flatMap { value in
        DeferredFuture<Int, Never> { promise in
          second.increment()
          promise(.success(value + 1))
        }
      }
    #expect(first.value == 0)
    #expect(chain.record().events == [.subscription, .value(11), .completion(.finished)])
    #expect(chain.record().values == [21])
    #expect(first.value == 2)
    #expect(second.value == 2)
  }

  @Test("map's transform runs when the work reports its value; the value waits for demand")
  func mapRunsWhenTheWorkReports() {
    let transforms = FuturesCounter()
    let recorder = DeferredFuture<Int, Never> { $0(.success(1)) }
      .map { value -> Int in
        transforms.increment()
        return value + 1
      }
      .record(initialDemand: .none)
    #expect(transforms.value == 1)
    #expect(recorder.events == [.subscription])
    recorder.request(.max(1))
    #expect(recorder.events == [.subscription, .value(2), .completion(.finished)])
    #expect(transforms.value == 1)
  }

  @Test("a promise called twice counts once: map runs once and the next future starts once")
  func promiseTwiceCountsOnce() {
    let transforms = FuturesCounter()
    let next = ManualWork<Int, FuturesError>()
    let recorder = DeferredFuture<Int, FuturesError> { promise in
      promise(.success(1))
      promise(.success(2))
      promise(.failure(FuturesError(1)))
    }
    .map { value -> Int in
      transforms.increment()
      return value
    }
    .flatMap { _ in next.future }
    .record()
    #expect(transforms.value == 1)
    #expect(next.runs == 1)
    next.fulfill(.success(5))
    next.fulfill(.success(6))
    next.fulfill(.failure(FuturesError(2)))
    #expect(recorder.events == [.subscription, .value(5), .completion(.finished)])
  }

  @Test("a failure passes through map and flatMap without running them")
  func failurePassesThroughMap() {
    let transforms = FuturesCounter()
    let recorder = DeferredFuture<Int, FuturesError> { $0(.failure(FuturesError(3))) }
      .map { value -> Int in
        transforms.increment()
        return value
      }
      .flatMap { value -> DeferredFuture<Int, FuturesError> in
        transforms.increment()
        return .just(value)
      }
      .record(initialDemand: .none)
    #expect(recorder.events == [.subscription, .completion(.failure(FuturesError(3)))])
    #expect(transforms.value == 0)
  }

  @Test("the next future's failure fails the chain")
  func innerFailureFailsTheChain() {
    let recorder = DeferredFuture<Int, FuturesError>.just(1)
      .flatMap { _ in DeferredFuture<Int, FuturesError>.fail(FuturesError(4)) }
      .map { $0 + 1 }
      .record()
    #expect(recorder.events == [.subscription, .completion(.failure(FuturesError(4)))])
  }

  @Test("flatMap's four failure combinations compose")
  func flatMapFailureCombinations() {
    let neverThenFailing = DeferredFuture<Int, Never>.just(1)
      .flatMap { _ in DeferredFuture<Int, FuturesError>.fail(FuturesError(5)) }
    #expect(neverThenFailing.record().receivedCompletion == .failure(FuturesError(5)))
    let failingThenNever = DeferredFuture<Int, FuturesError>.just(1)
      .flatMap { DeferredFuture<Int, Never>.just($0 + 1) }
    #expect(failingThenNever.record().values == [2])
    let neverThenNever = DeferredFuture<Int, Never>.just(1)
      .flatMap { DeferredFuture<String, Never>.just("#\($0)") }
    #expect(neverThenNever.record().values == ["#1"])
  }

  @Test("the error operators compose: catch, tryCatch, replaceError, mapError, tryMap")
  func errorOperatorsCompose() {
    let failing = DeferredFuture<Int, FuturesError>.fail(FuturesError(6))
    #expect(failing.catch { _ in DeferredFuture<Int, Never>.just(7) }.record().values == [7])
    #expect(failing.replaceError(with: 8).record().values == [8])
    let mapped = failing.mapError { FuturesError($0.id + 1) }.record()
    #expect(mapped.receivedCompletion == .failure(FuturesError(7)))
    let rethrown = failing.tryCatch { _ -> DeferredFuture<Int, FuturesError> in
      throw FuturesError(9)
    }
    #expect(
      completionFailure(rethrown.record().receivedCompletion) as? FuturesError == FuturesError(9))
    let thrown = DeferredFuture<Int, Never>.just(1).tryMap { _ -> Int in throw FuturesError(10) }
    #expect(
      completionFailure(thrown.record().receivedCompletion) as? FuturesError == FuturesError(10))
    let passed = DeferredFuture<Int, FuturesError>.just(2).catch { _ in
      DeferredFuture<Int, Never>.just(0)
    }
    #expect(passed.record().values == [2])
  }

  @Test("a chain into a future made from a publisher subscribes it, and delivers its result")
  func flatMapIntoPublisherBasedFuture() {
    let scheduler = DispatchQueue.test
    let recorder = DeferredFuture<Int, Never>.just(1)
      .flatMap {
        DeferredFuture<Int, Never>.just($0 + 1).delay(for: .seconds(1), scheduler: scheduler)
      }
      .map { $0 * 10 }
      .record()
    #expect(recorder.events == [.subscription])
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events == [.subscription, .value(20), .completion(.finished)])
  }

  @Test("cancelling while a publisher-based next future runs cancels its subscription")
  func cancelCancelsPublisherBasedStage() {
    let scheduler = DispatchQueue.test
    let cancels = FuturesCounter()
    let recorder = DeferredFuture<Int, Never>.just(1)
      .flatMap {
        DeferredFuture<Int, Never>.just($0)
          .delay(for: .seconds(1), scheduler: scheduler)
          .handleEvents(receiveCancel: { cancels.increment() })
      }
      .record()
    recorder.cancel()
    #expect(cancels.value == 1)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events == [.subscription])
  }

  // MARK: Cancellation

  @Test("cancelling before the first result cancels the first future's task")
  func cancelCancelsTheFirstStage() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let nextRuns = FuturesCounter()
    let recorder = DeferredFuture<Int, Never> {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 1
    }
    .map { $0 + 1 }
    .flatMap { value in
      DeferredFuture<Int, Never> { promise in
        nextRuns.increment()
        promise(.success(value))
      }
    }
    .record()
    await started.wait()
    recorder.cancel()
    await cancelled.wait()
    #expect(recorder.events == [.subscription])
    #expect(nextRuns.value == 0)
  }

  @Test("cancelling while the next future runs cancels the next future's task")
  func cancelCancelsTheRunningStage() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let recorder = DeferredFuture<Int, Never>.just(1)
      .flatMap { value in
        DeferredFuture<Int, Never> {
          started.fire()
          await awaitTaskCancellation()
          cancelled.fire()
          return value
        }
      }
      .record()
    await started.wait()
    recorder.cancel()
    await cancelled.wait()
    #expect(recorder.events == [.subscription])
  }

  @Test("a result reported after a cancel starts no next future and delivers nothing")
  func resultAfterCancelIsIgnored() {
    let first = ManualWork<Int, Never>()
    let nextRuns = FuturesCounter()
    let recorder = first.future
      .flatMap { value in
        DeferredFuture<Int, Never> { promise in
          nextRuns.increment()
          promise(.success(value))
        }
      }
      .record()
    recorder.cancel()
    first.fulfill(.success(1))
    #expect(nextRuns.value == 0)
    #expect(recorder.events == [.subscription])
  }

  // MARK: Lifetime

  @Test("a completed chain releases its subscriber and the closures' captures")
  func completionReleasesEverything() {
    let first = ManualWork<Int, Never>()
    let second = ManualWork<Int, Never>()
    weak var weakOwner: FuturesOwner?
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let owner = FuturesOwner()
      weakOwner = owner
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      first.future
        .map { value -> Int in
          owner.values.append(value)
          return value
        }
        .flatMap { _ in second.future }
        .subscribe(subscriber)
      first.fulfill(.success(1))
      second.fulfill(.success(2))
      #expect(subscriber.values == [2])
    }
    // The works keep their promises: the chain must not keep anything through them.
    #expect(weakSubscriber == nil)
    #expect(weakOwner == nil)
  }

  @Test("a cancelled chain releases its subscriber and the closures' captures")
  func cancelReleasesEverything() {
    let first = ManualWork<Int, Never>()
    let second = ManualWork<Int, Never>()
    weak var weakOwner: FuturesOwner?
    var cancellable: AnyCancellable?
    do {
      let owner = FuturesOwner()
      weakOwner = owner
      cancellable = first.future
        .flatMap { _ in second.future }
        .map { value -> Int in
          owner.values.append(value)
          return value
        }
        .sink { _ in }
    }
    first.fulfill(.success(1))
    #expect(second.runs == 1)
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  // MARK: Races

  @Test("stress: a cancel racing the running future's promise never delivers after the cancel")
  func stressCancelRacingTheRunningStage() async {
    for _ in 0..<200 {
      let first = ManualWork<Int, Never>()
      let second = ManualWork<Int, Never>()
      weak var weakOwner: FuturesOwner?
      let recorder: TestSubscriber<Int, Never>
      do {
        let owner = FuturesOwner()
        weakOwner = owner
        recorder = first.future
          .map { value -> Int in
            _ = owner
            return value
          }
          .flatMap { _ in second.future }
          .record()
      }
      let cancelsInStageOne = Bool.random()
      if !cancelsInStageOne { first.fulfill(.success(1)) }
      await concurrentPerform(2) { thread in
        if thread == 0 {
          recorder.cancel()
        } else if cancelsInStageOne {
          first.fulfill(.success(1))
          if second.runs == 1 { second.fulfill(.success(2)) }
        } else {
          second.fulfill(.success(2))
        }
      }
      // At most the value, and no `.finished` after the cancel (as for one future: a value
      // already on its way when the cancel comes still lands, its completion does not).
      #expect(recorder.values.count <= 1)
      #expect(recorder.completionCount <= recorder.values.count)
      #expect(second.runs <= 1)
      // Delivered or cancelled, the chain let go of everything its closures captured.
      #expect(weakOwner == nil)
      // A result reported after the race changes nothing.
      first.fulfill(.success(3))
      if second.runs == 1 { second.fulfill(.success(4)) }
      #expect(recorder.values.count <= 1)
    }
  }
}
