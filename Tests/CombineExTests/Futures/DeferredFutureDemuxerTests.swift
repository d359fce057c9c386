import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("DeferredFutureDemuxer")
struct DeferredFutureDemuxerTests {
  /// A demuxer whose operation's runs the test ends through `work`, started on a serial queue.
  final class Harness: @unchecked Sendable {
    // @unchecked Sendable: `works` is guarded by `lock`; the demuxer is thread-safe.
    private let lock = NSLock()
    private var works: [String: [ManualWork<Int, FuturesError>]] = [:]
    let queue = DispatchQueue(label: "demuxer-tests")
    let operations = FuturesCounter()
    private(set) var demuxer: DeferredFutureDemuxer<String, Int, FuturesError>!

    init() {
      demuxer = DeferredFutureDemuxer(
        { [self] key in
          operations.increment()
          let work = ManualWork<Int, FuturesError>()
          lock.withLock { works[key, default: []].append(work) }
          return work.future.eraseToAnyDeferredFuture()
        }, promiseQueue: queue)
    }

    /// The latest run of `key`'s operation, once it started (waiting for the promise queue).
    func run(_ key: String) async -> ManualWork<Int, FuturesError> {
      queue.sync {}
      let work = lock.withLock { works[key]?.last }
      guard let work else {
        Issue.record("no run of \(key) started")
        return ManualWork()
      }
      await work.started.wait()
      return work
    }

    func runCount(_ key: String) -> Int { lock.withLock { works[key]?.count ?? 0 } }
  }

  @Test("overlapping subscriptions for one key share one run and all receive its value")
  func sharesOneRun() async {
    let harness = Harness()
    let first = harness.demuxer.build(key: "a").record()
    let second = harness.demuxer.build(key: "a").record()
    let work = await harness.run("a")
    let third = harness.demuxer.build(key: "a").record()
    work.fulfill(.success(7))
    #expect(harness.operations.value == 1)
    for recorder in [first, second, third] {
      #expect(await recorder.values(count: 1) == [7])
      #expect(recorder.receivedCompletion == .finished)
    }
  }

  @Test("a failure reaches every subscriber of the run")
  func failureReachesAll() async {
    let harness = Harness()
    let first = harness.demuxer.build(key: "a").record()
    let second = harness.demuxer.build(key: "a").record()
    await harness.run("a").fulfill(.failure(FuturesError(3)))
    #expect(await first.completion == .failure(FuturesError(3)))
    #expect(await second.completion == .failure(FuturesError(3)))
  }

  @Test("after the result, the next subscription for the key starts a new run")
  func newRunAfterResult() async {
    let harness = Harness()
    let first = harness.demuxer.build(key: "a").record()
    await harness.run("a").fulfill(.success(1))
    #expect(await first.values(count: 1) == [1])
    let second = harness.demuxer.build(key: "a").record()
    await harness.run("a").fulfill(.success(2))
    #expect(await second.values(count: 1) == [2])
    #expect(harness.runCount("a") == 2)
  }

  @Test("different keys run side by side")
  func keysAreIndependent() async {
    let harness = Harness()
    let a = harness.demuxer.build(key: "a").record()
    let b = harness.demuxer.build(key: "b").record()
    await harness.run("b").fulfill(.success(2))
    #expect(await b.values(count: 1) == [2])
    #expect(a.values.isEmpty)
    await harness.run("a").fulfill(.success(1))
    #expect(await a.values(count: 1) == [1])
  }

  @Test(
    "nothing runs until a future from build is subscribed, and the operation runs on promiseQueue")
  func startsOnSubscriptionOnQueue() async {
    let queueKey = DispatchSpecificKey<Int>()
    let harness = Harness()
    harness.queue.setSpecific(key: queueKey, value: 1)
    let onQueue = LockedBox<Bool?>(nil)
    let demuxer = DeferredFutureDemuxer<Int, Int, Never>(
      { key in
        onQueue.withLock { $0 = DispatchQueue.getSpecific(key: queueKey) == 1 }
        return .just(key * 2)
      }, promiseQueue: harness.queue)
    let future = demuxer.build(key: 4)
    harness.queue.sync {}
    #expect(onQueue.withLock { $0 } == nil)
    #expect(await future.record().values(count: 1) == [8])
    #expect(onQueue.withLock { $0 } == true)
  }

  @Test("one subscriber's cancel leaves the run to the others")
  func cancelOneOfMany() async {
    let harness = Harness()
    let leaving = harness.demuxer.build(key: "a").record()
    let staying = harness.demuxer.build(key: "a").record()
    let work = await harness.run("a")
    leaving.cancel()
    work.fulfill(.success(5))
    #expect(await staying.values(count: 1) == [5])
    #expect(leaving.events == [.subscription])
  }

  @Test("when the last subscriber cancels, the run is cancelled, and the next one starts afresh")
  func lastCancelCancelsRun() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let demuxer = DeferredFutureDemuxer<String, Int, Never>({ _ in
      DeferredFuture<Int, Never> { _ in started.fire() }
        .handleCancel { cancelled.fire() }
        .eraseToAnyDeferredFuture()
    })
    let first = demuxer.build(key: "a").record()
    let second = demuxer.build(key: "a").record()
    await started.wait()
    first.cancel()
    #expect(cancelled.count == 0)
    second.cancel()
    await cancelled.wait()
    let third = demuxer.build(key: "a").record()
    await started.wait(count: 2)
    third.cancel()
    await cancelled.wait(count: 2)
  }

  @Test("a run given up before it started never calls the operation")
  func abandonedBeforeStart() async {
    let harness = Harness()
    harness.queue.suspend()
    let recorder = harness.demuxer.build(key: "a").record()
    recorder.cancel()
    harness.queue.resume()
    harness.queue.sync {}
    #expect(harness.operations.value == 0)
  }

  @Test("the futures keep the demuxer alive; without them it is freed")
  func lifetime() async {
    weak var weakDemuxer: DeferredFutureDemuxer<Int, Int, Never>?
    var future: AnyDeferredFuture<Int, Never>?
    do {
      let demuxer = DeferredFutureDemuxer<Int, Int, Never>({ .just($0) })
      weakDemuxer = demuxer
      future = demuxer.build(key: 1)
    }
    #expect(weakDemuxer != nil)
    #expect(await future?.record().values(count: 1) == [1])
    future = nil
    // The run's work item on the promise queue delivers the value, then lets go of the
    // demuxer when it returns, which may be just after the value arrived here.
    await waitForRelease { weakDemuxer == nil }
    #expect(weakDemuxer == nil)
  }

  @Test("stress: 8 threads building the same key at once share one run")
  func stressSharesOneRun() async {
    for _ in 0..<50 {
      let harness = Harness()
      let recorders = LockedBox<[TestSubscriber<Int, FuturesError>]>([])
      await concurrentPerform(8) { _ in
        let recorder = harness.demuxer.build(key: "k").record()
        recorders.withLock { $0.append(recorder) }
      }
      await harness.run("k").fulfill(.success(42))
      for recorder in recorders.withLock({ $0 }) {
        #expect(await recorder.values(count: 1) == [42])
      }
      #expect(harness.operations.value == 1)
    }
  }

  @Test("stress: 8 threads subscribing and cancelling leave no run behind")
  func stressSubscribeAndCancel() async {
    let runs = FuturesCounter()
    let demuxer = DeferredFutureDemuxer<Int, Int, Never>({ key in
      runs.increment()
      return DeferredFuture<Int, Never> { promise in
        DispatchQueue.global().async { promise(.success(key)) }
      }.eraseToAnyDeferredFuture()
    })
    let delivered = LockedBox<[TestSubscriber<Int, Never>]>([])
    await concurrentPerform(8) { thread in
      for round in 0..<100 {
        let recorder = demuxer.build(key: round % 4).record()
        if (thread + round).isMultiple(of: 3) {
          recorder.cancel()
        } else {
          delivered.withLock { $0.append(recorder) }
        }
      }
    }
    for recorder in delivered.withLock({ $0 }) {
      #expect(await recorder.values(count: 1).count == 1)
    }
    // No run was left behind: a new subscription for each key starts (or joins) a run that
    // delivers; one stuck in the demuxer's table would never deliver.
    for key in 0..<4 {
      #expect(await demuxer.build(key: key).record().values(count: 1) == [key])
    }
    #expect(runs.value >= 4)
  }
}
