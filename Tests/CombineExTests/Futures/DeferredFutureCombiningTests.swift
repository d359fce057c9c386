import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("Combining DeferredFutures (zip, combineLatest)")
struct DeferredFutureCombiningTests {
  // MARK: Two futures

  @Test("zip publishes both values as a pair, then finishes")
  func zipPair() {
    let recorder = DeferredFuture<Int, Never>.just(1).zip(DeferredFuture<String, Never>.just("a"))
      .record()
    #expect(recorder.values.map { "\($0.0)\($0.1)" } == ["1a"])
    #expect(recorder.receivedCompletion == .finished)
    #expect(recorder.completionCount == 1)
  }

  @Test("cold: nothing runs at construction; each subscription runs each future once")
  func zipIsCold() {
    let first = ManualWork<Int, FuturesError>()
    let second = ManualWork<Int, FuturesError>()
    let zipped = first.future.zip(second.future)
    #expect(first.runs == 0)
    #expect(second.runs == 0)
    _ = zipped.record()
    #expect(first.runs == 1)
    #expect(second.runs == 1)
    _ = zipped.record()
    #expect(first.runs == 2)
    #expect(second.runs == 2)
  }

  @Test("waits for every value, whatever order they arrive in")
  func zipWaitsForBoth() {
    let first = ManualWork<Int, FuturesError>()
    let second = ManualWork<Int, FuturesError>()
    let recorder = first.future.zip(second.future) { $0 * 10 + $1 }.record()
    second.fulfill(.success(2))
    #expect(recorder.values.isEmpty)
    first.fulfill(.success(1))
    #expect(recorder.events == [.subscription, .value(12), .completion(.finished)])
  }

  @Test("the combined value waits for demand")
  func zipWaitsForDemand() {
    let recorder = DeferredFuture<Int, Never>.just(1).zip(DeferredFuture<Int, Never>.just(2), +)
      .record(initialDemand: .none)
    #expect(recorder.events == [.subscription])
    recorder.request(.max(1))
    #expect(recorder.events == [.subscription, .value(3), .completion(.finished)])
  }

  @Test("the first failure fails at once and cancels the other future")
  func zipFailureCancelsOthers() {
    let cancels = FuturesCounter()
    let first = ManualWork<Int, FuturesError>()
    let second = ManualWork<Int, FuturesError>()
    let recorder = first.future.handleEvents(receiveCancel: { cancels.increment() })
      .zip(second.future)
      .record()
    second.fulfill(.failure(FuturesError(2)))
    #expect(recorder.receivedCompletion == .failure(FuturesError(2)))
    #expect(cancels.value == 1)
    first.fulfill(.success(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.completionCount == 1)
  }

  @Test("a failure during subscription stops the futures after it from starting")
  func zipImmediateFailureSkipsRest() {
    let second = ManualWork<Int, FuturesError>()
    let recorder = DeferredFuture<Int, FuturesError>.fail(FuturesError(1)).zip(second.future)
      .record()
    #expect(recorder.receivedCompletion == .failure(FuturesError(1)))
    #expect(second.runs == 0)
  }

  @Test("cancelling cancels every future, including the task of async work")
  func zipCancel() async {
    let cancels = FuturesCounter()
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let asyncWork = DeferredFuture<Int, Never> {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }
    let manual = ManualWork<Int, Never>()
    let recorder = manual.future.handleEvents(receiveCancel: { cancels.increment() })
      .zip(asyncWork, +)
      .record()
    await started.wait()
    recorder.cancel()
    #expect(cancels.value == 1)
    await cancelled.wait()
    #expect(recorder.events == [.subscription])
  }

  @Test("futures that finish normally are not cancelled")
  func zipDoesNotCancelFinishedFutures() {
    let cancels = FuturesCounter()
    let recorder = DeferredFuture<Int, Never>.just(1)
      .handleEvents(receiveCancel: { cancels.increment() })
      .zip(DeferredFuture<Int, Never>.just(2).handleEvents(receiveCancel: { cancels.increment() }))
      .record()
    #expect(recorder.values.count == 1)
    #expect(cancels.value == 0)
  }

  @Test("combineLatest of futures is zip")
  func combineLatestPair() {
    let recorder = DeferredFuture<Int, Never>.just(4)
      .combineLatest(DeferredFuture<Int, Never>.just(5)) { [$0, $1] }
      .record()
    #expect(recorder.values == [[4, 5]])
    let pair = DeferredFuture<Int, Never>.just(1).combineLatest(DeferredFuture<Int, Never>.just(2))
      .record()
    #expect(pair.values.map { [$0.0, $0.1] } == [[1, 2]])
  }

  // MARK: Three and four futures

  @Test("zip of three and four futures publishes every value in order")
  func zipThreeAndFour() {
    let a = DeferredFuture<Int, Never>.just(1)
    let b = DeferredFuture<String, Never>.just("b")
    let c = DeferredFuture<Bool, Never>.just(true)
    let d = DeferredFuture<Double, Never>.just(0.5)
    #expect(a.zip(b, c).record().values.map { "\($0)\($1)\($2)" } == ["1btrue"])
    #expect(a.zip(b, c, d).record().values.map { "\($0)\($1)\($2)\($3)" } == ["1btrue0.5"])
    #expect(a.zip(b, c) { "\($0)\($1)\($2)" }.record().values == ["1btrue"])
    #expect(a.zip(b, c, d) { "\($0)\($1)\($2)\($3)" }.record().values == ["1btrue0.5"])
    #expect(a.combineLatest(b, c).record().values.map { "\($0)\($1)\($2)" } == ["1btrue"])
    #expect(a.combineLatest(b, c) { "\($0)\($1)\($2)" }.record().values == ["1btrue"])
    #expect(
      a.combineLatest(b, c, d).record().values.map { "\($0)\($1)\($2)\($3)" } == ["1btrue0.5"])
    #expect(
      a.combineLatest(b, c, d) { "\($0)\($1)\($2)\($3)" }.record().values == ["1btrue0.5"])
  }

  @Test("zip of four runs each future once per subscription, and a failure cancels the rest")
  func zipFourFailure() {
    let works = (0..<4).map { _ in ManualWork<Int, FuturesError>() }
    let cancels = FuturesCounter()
    let futures = works.map { $0.future.handleEvents(receiveCancel: { cancels.increment() }) }
    let recorder = futures[0].zip(futures[1], futures[2], futures[3]).record()
    #expect(works.map(\.runs) == [1, 1, 1, 1])
    works[0].fulfill(.success(0))
    works[2].fulfill(.failure(FuturesError(2)))
    #expect(recorder.receivedCompletion == .failure(FuturesError(2)))
    #expect(cancels.value == 2)
  }

  // MARK: Arrays

  @Test("an array's zip publishes the values in the array's order")
  func arrayZipOrder() {
    let works = (0..<5).map { _ in ManualWork<Int, FuturesError>() }
    let recorder = works.map(\.future).zip().record()
    for index in [3, 0, 4, 1, 2] { works[index].fulfill(.success(index * 10)) }
    #expect(
      recorder.events == [.subscription, .value([0, 10, 20, 30, 40]), .completion(.finished)])
  }

  @Test("an array's combineLatest is its zip")
  func arrayCombineLatest() {
    let futures = ["a", "b", "c"].map { DeferredFuture<String, Never>.just($0) }
    #expect(futures.combineLatest().record().values == [["a", "b", "c"]])
  }

  @Test("an empty array publishes [] at once")
  func emptyArray() {
    let futures: [DeferredFuture<Int, FuturesError>] = []
    #expect(futures.zip().record().events == [.subscription, .value([]), .completion(.finished)])
    #expect(futures.combineLatest().record().values == [[]])
  }

  @Test("a one-element array publishes a one-element array")
  func singleElementArray() {
    #expect([DeferredFuture<Int, Never>.just(7)].zip().record().values == [[7]])
  }

  @Test("an array's zip is cold: each subscription runs each future once")
  func arrayIsCold() {
    let works = (0..<3).map { _ in ManualWork<Int, Never>() }
    let zipped = works.map(\.future).zip()
    #expect(works.map(\.runs) == [0, 0, 0])
    _ = zipped.record()
    _ = zipped.record()
    #expect(works.map(\.runs) == [2, 2, 2])
  }

  @Test("an array's first failure fails at once and cancels every other future")
  func arrayFailureCancelsOthers() {
    let works = (0..<6).map { _ in ManualWork<Int, FuturesError>() }
    let cancels = FuturesCounter()
    let recorder = works.map { $0.future.handleEvents(receiveCancel: { cancels.increment() }) }
      .zip()
      .record()
    works[1].fulfill(.success(1))
    works[4].fulfill(.failure(FuturesError(4)))
    #expect(recorder.receivedCompletion == .failure(FuturesError(4)))
    #expect(cancels.value == 4)
    works[5].fulfill(.failure(FuturesError(5)))
    #expect(recorder.completionCount == 1)
  }

  @Test("an array of erased futures zips too")
  func arrayOfErasedFutures() {
    let futures = [1, 2].map { DeferredFuture<Int, Never>.just($0).eraseToAnyDeferredFuture() }
    #expect(futures.zip().record().values == [[1, 2]])
  }

  @Test("a thousand futures zip without trouble")
  func largeArray() {
    let futures = (0..<1_000).map { DeferredFuture<Int, Never>.just($0) }
    #expect(futures.zip().record().values == [Array(0..<1_000)])
  }

  // MARK: Lifetime and threads

  @Test("a finished combination releases everything")
  func releasesAfterFinish() {
    let works = (0..<3).map { _ in ManualWork<Int, Never>() }
    weak var weakSubscriber: TestSubscriber<[Int], Never>?
    do {
      let subscriber = TestSubscriber<[Int], Never>()
      weakSubscriber = subscriber
      works.map(\.future).zip().subscribe(subscriber)
      for work in works { work.fulfill(.success(1)) }
      #expect(subscriber.values == [[1, 1, 1]])
    }
    #expect(weakSubscriber == nil)
  }

  @Test("a cancelled combination releases everything, although the works keep their promises")
  func releasesAfterCancel() {
    let works = (0..<3).map { _ in ManualWork<Int, Never>() }
    weak var weakOwner: FuturesOwner?
    var cancellable: AnyCancellable?
    do {
      let owner = FuturesOwner()
      weakOwner = owner
      cancellable = works.map(\.future).zip().sink { owner.values += $0 }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("stress: futures fulfilled from many threads at once deliver all values exactly once")
  func stressConcurrentFulfilment() async {
    for _ in 0..<50 {
      let works = (0..<8).map { _ in ManualWork<Int, FuturesError>() }
      let recorder = works.map(\.future).zip().record()
      let promises = works.map { $0.promise() }
      await concurrentPerform(8) { index in promises[index](.success(index)) }
      #expect(recorder.values == [Array(0..<8)])
      #expect(recorder.completionCount == 1)
    }
  }

  @Test("stress: failures, values, demand and a cancel racing deliver at most one completion")
  func stressRace() async {
    for _ in 0..<100 {
      let works = (0..<4).map { _ in ManualWork<Int, FuturesError>() }
      let recorder = works.map(\.future).zip().record(initialDemand: .none)
      let promises = works.map { $0.promise() }
      await concurrentPerform(6) { thread in
        switch thread {
        case 0...3:
          promises[thread](thread == 2 ? .failure(FuturesError(thread)) : .success(thread))
        case 4: recorder.request(.max(1))
        default: recorder.cancel()
        }
      }
      #expect(recorder.values.isEmpty)
      #expect(recorder.completionCount <= 1)
    }
  }
}
