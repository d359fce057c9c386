import CombineEx
import CombineExTesting
import Foundation
import Testing

/// A future that counts its runs and publishes the run number.
private func countingFuture(_ runs: FuturesCounter) -> DeferredFuture<Int, FuturesError> {
  DeferredFuture { promise in promise(.success(runs.increment())) }
}

@Suite("DeferredFuture operators")
struct DeferredFutureOperatorsTests {
  // MARK: Result types and coldness

  @Test("single-value operators return DeferredFuture, without type annotations")
  func operatorsReturnDeferredFuture() {
    let future = DeferredFuture<Int, FuturesError>.just(1)
    let never = DeferredFuture<Int, Never>.just(1)
    let scheduler = DispatchQueue.test
    #expect(type(of: future.map { $0 + 1 }) == DeferredFuture<Int, FuturesError>.self)
    #expect(type(of: future.tryMap { $0 }) == DeferredFuture<Int, any Error>.self)
    #expect(
      type(of: future.mapError { _ in FuturesError(1) }) == DeferredFuture<Int, FuturesError>.self)
    #expect(
      type(of: never.setFailureType(to: FuturesError.self))
        == DeferredFuture<Int, FuturesError>.self)
    #expect(
      type(of: future.flatMap { DeferredFuture<Int, FuturesError>.just($0) })
        == DeferredFuture<Int, FuturesError>.self)
    #expect(
      type(of: future.flatMap { _ in never.map { $0 + 1 } })
        == DeferredFuture<Int, FuturesError>.self)
    #expect(type(of: never.flatMap { _ in future }) == DeferredFuture<Int, FuturesError>.self)
    #expect(type(of: never.flatMap { _ in never }) == DeferredFuture<Int, Never>.self)
    #expect(type(of: future.catch { _ in never }) == DeferredFuture<Int, Never>.self)
    #expect(type(of: future.tryCatch { _ in never }) == DeferredFuture<Int, any Error>.self)
    #expect(type(of: future.replaceError(with: 0)) == DeferredFuture<Int, Never>.self)
    #expect(type(of: future.retry(1)) == DeferredFuture<Int, FuturesError>.self)
    #expect(type(of: future.handleEvents()) == DeferredFuture<Int, FuturesError>.self)
    #expect(
      type(of: future.delay(for: .seconds(1), scheduler: scheduler))
        == DeferredFuture<Int, FuturesError>.self)
    #expect(
      type(of: future.timeout(.seconds(1), scheduler: scheduler, customError: { FuturesError() }))
        == DeferredFuture<Int, FuturesError>.self)
    #expect(type(of: future.receive(on: scheduler)) == DeferredFuture<Int, FuturesError>.self)
    #expect(type(of: future.subscribe(on: scheduler)) == DeferredFuture<Int, FuturesError>.self)
    #expect(
      type(of: future.eraseToAnyDeferredFuture().map { $0 })
        == DeferredFuture<Int, FuturesError>.self)
    #expect(type(of: future.zip(future)) == DeferredFuture<(Int, Int), FuturesError>.self)
    #expect(type(of: future.combineLatest(future, +)) == DeferredFuture<Int, FuturesError>.self)
    #expect(type(of: [future, future].zip()) == DeferredFuture<[Int], FuturesError>.self)
    #expect(type(of: [future].combineLatest()) == DeferredFuture<[Int], FuturesError>.self)
  }

  @Test("cold through a chain of every operator: nothing runs before a subscription")
  func chainIsCold() {
    let runs = FuturesCounter()
    let innerRuns = FuturesCounter()
    let scheduler = DispatchQueue.test
    let chain = countingFuture(runs)
      .map { $0 * 10 }
      .mapError { $0 }
      .flatMap { value in
        DeferredFuture<Int, FuturesError> { promise in
          innerRuns.increment()
          promise(.success(value + 1))
        }
      }
      .catch { _ in DeferredFuture<Int, FuturesError>.just(-1) }
      .retry(2)
      .handleEvents()
      .receive(on: scheduler)
      .subscribe(on: scheduler)
      .delay(for: .zero, scheduler: scheduler)
      .timeout(.seconds(1), scheduler: scheduler, customError: { FuturesError() })
      .tryMap { $0 }
      .tryCatch { _ in DeferredFuture<Int, any Error>.just(-2) }
      .replaceError(with: 0)
      .eraseToAnyDeferredFuture()
    #expect(runs.value == 0)
    #expect(innerRuns.value == 0)
    let first = chain.record()
    scheduler.advance()
    #expect(first.values == [11])
    #expect(runs.value == 1)
    #expect(innerRuns.value == 1)
    let second = chain.record()
    scheduler.advance()
    #expect(second.values == [21])
    #expect(runs.value == 2)
    #expect(innerRuns.value == 2)
  }

  // MARK: map, tryMap, mapError, setFailureType

  @Test("map transforms the value and passes a failure on")
  func map() {
    #expect(DeferredFuture<Int, FuturesError>.just(2).map { "#\($0)" }.record().values == ["#2"])
    let failed = DeferredFuture<Int, FuturesError>.fail(FuturesError(1)).map { $0 + 1 }.record()
    #expect(failed.receivedCompletion == .failure(FuturesError(1)))
  }

  @Test("map with key paths picks fields of the value")
  func mapKeyPaths() {
    let future = DeferredFuture<KeyPathSample, Never>.just(KeyPathSample(a: 1, b: "b", c: true))
    #expect(type(of: future.map(\.a)) == DeferredFuture<Int, Never>.self)
    #expect(future.map(\.a).record().values == [1])
    #expect(future.map(\.a, \.b).record().values.map { "\($0)\($1)" } == ["1b"])
    #expect(future.map(\.a, \.b, \.c).record().values.map { "\($0)\($1)\($2)" } == ["1btrue"])
  }

  @Test("map keeps the value waiting for demand")
  func mapKeepsDemand() {
    let recorder = DeferredFuture<Int, Never>.just(2).map { $0 * 2 }.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.events == [.subscription, .value(4), .completion(.finished)])
  }

  @Test("tryMap's thrown error fails the future")
  func tryMapThrows() {
    let recorder = DeferredFuture<Int, Never>.just(1).tryMap { _ -> Int in throw FuturesError(4) }
      .record()
    #expect(recorder.values.isEmpty)
    #expect(completionFailure(recorder.receivedCompletion) as? FuturesError == FuturesError(4))
  }

  @Test("tryMap passes the upstream failure on")
  func tryMapUpstreamFailure() {
    let recorder = DeferredFuture<Int, FuturesError>.fail(FuturesError(2)).tryMap { $0 }.record()
    #expect(completionFailure(recorder.receivedCompletion) as? FuturesError == FuturesError(2))
  }

  @Test("mapError converts the failure and leaves the value alone")
  func mapError() {
    let converted = DeferredFuture<Int, FuturesError>.fail(FuturesError(2))
      .mapError { FuturesError($0.id * 10) }
      .record()
    #expect(converted.receivedCompletion == .failure(FuturesError(20)))
    let value = DeferredFuture<Int, FuturesError>.just(1).mapError { $0 }.record()
    #expect(value.values == [1])
  }

  @Test("setFailureType lets a never-failing future meet failing ones")
  func setFailureType() {
    let recorder = DeferredFuture<Int, Never>.just(1).setFailureType(to: FuturesError.self)
      .zip(DeferredFuture<Int, FuturesError>.just(2))
      .record()
    #expect(recorder.values.map { [$0.0, $0.1] } == [[1, 2]])
  }

  // MARK: flatMap

  @Test("flatMap runs the next future after the value, once per subscription")
  func flatMapChains() {
    let first = ManualWork<Int, FuturesError>()
    let second = ManualWork<String, FuturesError>()
    let chain = first.future.flatMap { value in second.future.map { "\(value):\($0)" } }
    let recorder = chain.record()
    #expect(first.runs == 1)
    #expect(second.runs == 0)
    first.fulfill(.success(1))
    #expect(second.runs == 1)
    second.fulfill(.success("a"))
    #expect(recorder.events == [.subscription, .value("1:a"), .completion(.finished)])
  }

  @Test("flatMap does not run the next future when the first fails")
  func flatMapFirstFails() {
    let second = ManualWork<Int, FuturesError>()
    let recorder = DeferredFuture<Int, FuturesError>.fail(FuturesError(1))
      .flatMap { _ in second.future }
      .record()
    #expect(second.runs == 0)
    #expect(recorder.receivedCompletion == .failure(FuturesError(1)))
  }

  @Test("flatMap fails when the next future fails")
  func flatMapSecondFails() {
    let recorder = DeferredFuture<Int, FuturesError>.just(1)
      .flatMap { _ in DeferredFuture<Int, FuturesError>.fail(FuturesError(2)) }
      .record()
    #expect(recorder.receivedCompletion == .failure(FuturesError(2)))
  }

  @Test("cancelling during the next future cancels it")
  func flatMapCancelReachesInner() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let recorder = DeferredFuture<Int, Never>.just(1)
      .flatMap { _ in
        DeferredFuture<Int, Never> {
          started.fire()
          await awaitTaskCancellation()
          cancelled.fire()
          return 0
        }
      }
      .record()
    await started.wait()
    recorder.cancel()
    await cancelled.wait()
    #expect(recorder.values.isEmpty)
  }

  @Test("flatMap's variants join never-failing and failing futures")
  func flatMapVariants() {
    let never = DeferredFuture<Int, Never>.just(1)
    let failing = DeferredFuture<Int, FuturesError>.fail(FuturesError(3))
    #expect(failing.flatMap { _ in never }.record().receivedCompletion == .failure(FuturesError(3)))
    #expect(never.flatMap { _ in failing }.record().receivedCompletion == .failure(FuturesError(3)))
    #expect(never.flatMap { value in never.map { $0 + value } }.record().values == [2])
    #expect(
      DeferredFuture<Int, FuturesError>.just(1).flatMap { _ in never }.record().values == [1])
  }

  // MARK: catch, tryCatch, replaceError, retry

  @Test("catch replaces a failure with the fallback's result; the fallback runs only then")
  func catchReplacesFailure() {
    let fallbackRuns = FuturesCounter()
    let fallback = DeferredFuture<Int, Never> { promise in
      promise(.success(100 + fallbackRuns.increment()))
    }
    let failing = DeferredFuture<Int, FuturesError>.fail(FuturesError(1)).catch { _ in fallback }
    #expect(fallbackRuns.value == 0)
    #expect(failing.record().values == [101])
    #expect(failing.record().values == [102])
    let succeeding = DeferredFuture<Int, FuturesError>.just(1).catch { _ in fallback }
    #expect(succeeding.record().values == [1])
    #expect(fallbackRuns.value == 2)
  }

  @Test("catch hands the failure to the handler")
  func catchSeesFailure() {
    let recorder = DeferredFuture<Int, FuturesError>.fail(FuturesError(7))
      .catch { error in DeferredFuture<Int, Never>.just(error.id) }
      .record()
    #expect(recorder.values == [7])
  }

  @Test("tryCatch's thrown error fails the future; a fallback's result replaces the failure")
  func tryCatch() {
    let thrown = DeferredFuture<Int, FuturesError>.fail(FuturesError(1))
      .tryCatch { _ -> DeferredFuture<Int, FuturesError> in throw FuturesError(9) }
      .record()
    #expect(completionFailure(thrown.receivedCompletion) as? FuturesError == FuturesError(9))
    let replaced = DeferredFuture<Int, FuturesError>.fail(FuturesError(1))
      .tryCatch { _ in DeferredFuture<Int, FuturesError>.just(5) }
      .record()
    #expect(replaced.values == [5])
  }

  @Test("replaceError replaces a failure with the value")
  func replaceError() {
    let recorder = DeferredFuture<Int, FuturesError>.fail(FuturesError(1)).replaceError(with: 0)
      .record()
    #expect(recorder.events == [.subscription, .value(0), .completion(.finished)])
  }

  @Test("retry re-runs the work n more times, then fails with the last failure")
  func retryRerunsThenFails() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, FuturesError> { promise in
      promise(.failure(FuturesError(runs.increment())))
    }
    let recorder = future.retry(3).record()
    #expect(runs.value == 4)
    #expect(recorder.receivedCompletion == .failure(FuturesError(4)))
  }

  @Test("retry stops re-running once the work succeeds")
  func retryStopsOnSuccess() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, FuturesError> { promise in
      let run = runs.increment()
      promise(run < 3 ? .failure(FuturesError(run)) : .success(run))
    }
    let recorder = future.retry(5).record()
    #expect(runs.value == 3)
    #expect(recorder.events == [.subscription, .value(3), .completion(.finished)])
  }

  @Test("retry re-runs async work, each time in a new task")
  func retryAsync() async {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, any Error> {
      let run = runs.increment()
      if run < 3 { throw FuturesError(run) }
      return run
    }
    let recorder = future.retry(2).record()
    #expect(await recorder.values(count: 1) == [3])
    #expect(runs.value == 3)
  }

  @Test("retry(0) runs the work once")
  func retryZero() {
    let runs = FuturesCounter()
    let recorder = DeferredFuture<Int, FuturesError> { promise in
      promise(.failure(FuturesError(runs.increment())))
    }.retry(0).record()
    #expect(runs.value == 1)
    #expect(recorder.receivedCompletion == .failure(FuturesError(1)))
  }

  // MARK: handleEvents

  @Test("handleEvents sees the subscription, demand, value and completion of each run")
  func handleEventsSeesEvents() {
    let log = LockedLog()
    let future = DeferredFuture<Int, Never> { promise in
      log.append("work")
      promise(.success(1))
    }
    .handleEvents(
      receiveSubscription: { _ in log.append("subscription") },
      receiveOutput: { log.append("value \($0)") },
      receiveCompletion: { log.append("completion \($0)") },
      receiveCancel: { log.append("cancel") },
      receiveRequest: { log.append("request \($0)") })
    #expect(log.entries.isEmpty)
    _ = future.record()
    #expect(
      log.entries == [
        "subscription", "request unlimited", "work", "value 1", "completion finished",
      ])
  }

  @Test("handleEvents sees a cancel, and the cancel reaches the work")
  func handleEventsSeesCancel() async {
    let cancels = FuturesCounter()
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let recorder = DeferredFuture<Int, Never> {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }
    .handleEvents(receiveCancel: { cancels.increment() })
    .record()
    await started.wait()
    recorder.cancel()
    #expect(cancels.value == 1)
    await cancelled.wait()
  }

  // MARK: Lifetime

  @Test("a chain releases everything once it has finished")
  func chainReleasesAfterFinish() {
    let work = ManualWork<Int, FuturesError>()
    weak var weakOwner: FuturesOwner?
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let owner = FuturesOwner()
      weakOwner = owner
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      work.future
        .map { value -> Int in
          owner.values.append(value)
          return value
        }
        .retry(1)
        .replaceError(with: 0)
        .subscribe(subscriber)
      work.fulfill(.success(1))
      #expect(subscriber.values == [1])
    }
    #expect(weakOwner == nil)
    #expect(weakSubscriber == nil)
  }

  @Test("a cancelled chain releases everything, although the work keeps its promise")
  func chainReleasesAfterCancel() {
    let work = ManualWork<Int, FuturesError>()
    weak var weakOwner: FuturesOwner?
    var cancellable: AnyCancellable?
    do {
      let owner = FuturesOwner()
      weakOwner = owner
      cancellable = work.future
        .flatMap { DeferredFuture<Int, FuturesError>.just($0) }
        .catch { _ in DeferredFuture<Int, FuturesError>.just(0) }
        .sink(receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }
}

/// A value with fields, for the key-path maps.
private struct KeyPathSample {
  let a: Int
  let b: String
  let c: Bool
}

/// A thread-safe list of strings, for event-order tests.
private final class LockedLog: @unchecked Sendable {
  // @unchecked Sendable: `list` is guarded by `lock`.
  private let lock = NSLock()
  private var list: [String] = []

  func append(_ entry: String) { lock.withLock { list.append(entry) } }
  var entries: [String] { lock.withLock { list } }
}
