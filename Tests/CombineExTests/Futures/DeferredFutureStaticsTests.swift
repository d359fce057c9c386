import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("DeferredFuture: closure, successClosure, failureClosure, withTask")
struct DeferredFutureStaticsTests {
  // MARK: closure, successClosure, failureClosure

  @Test("closure runs its block once per subscription, never at construction")
  func closureRunsPerSubscription() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, FuturesError>.closure { .success(runs.increment()) }
    #expect(runs.value == 0)
    let first = future.record()
    let second = future.record()
    #expect(first.events == [.subscription, .value(1), .completion(.finished)])
    #expect(second.values == [2])
  }

  @Test("closure publishes a failure result as the future's failure")
  func closureFailure() {
    let recorder = DeferredFuture<Int, FuturesError>.closure { .failure(FuturesError(3)) }.record()
    #expect(recorder.events == [.subscription, .completion(.failure(FuturesError(3)))])
  }

  @Test("closure's value waits for demand")
  func closureHonoursDemand() {
    let recorder = DeferredFuture<Int, Never>.closure { .success(5) }.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.events == [.subscription, .value(5), .completion(.finished)])
  }

  @Test("a subscriber that cancels in receive(subscription:) never runs closure's block")
  func closureSkippedOnEarlyCancel() {
    let runs = FuturesCounter()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.cancel()
    DeferredFuture<Int, Never>.closure { .success(runs.increment()) }.subscribe(subscriber)
    #expect(runs.value == 0)
  }

  @Test("successClosure publishes the block's value, once per subscription")
  func successClosure() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, FuturesError>.successClosure { runs.increment() * 10 }
    #expect(future.record().values == [10])
    #expect(future.record().values == [20])
  }

  @Test("failureClosure fails with the block's error, made at subscription")
  func failureClosure() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, FuturesError>.failureClosure { FuturesError(runs.increment()) }
    #expect(runs.value == 0)
    #expect(future.record().receivedCompletion == .failure(FuturesError(1)))
  }

  // MARK: withTask

  @Test("withTask runs the task per subscription and publishes its value")
  func withTaskValue() async {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, Never>.withTask { runs.increment() }
    #expect(runs.value == 0)
    let recorder = future.record()
    #expect(await recorder.values(count: 1) == [1])
    #expect(await recorder.completion == .finished)
    #expect(await future.record().values(count: 1) == [2])
  }

  @Test("withTask fails with the typed error the task throws")
  func withTaskTypedFailure() async {
    let future = DeferredFuture<Int, FuturesError>.withTask { () throws(FuturesError) -> Int in
      throw FuturesError(8)
    }
    #expect(await future.record().completion == .failure(FuturesError(8)))
  }

  @Test("withTask cancels its task when the subscriber cancels")
  func withTaskCancelsTask() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let future = DeferredFuture<Int, Never>.withTask {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }
    let recorder = future.record()
    await started.wait()
    recorder.cancel()
    await cancelled.wait()
    #expect(recorder.events == [.subscription])
  }

  @Test("withTask(nonconformingErrorHandler:) passes a Failure as it is")
  func nonconformingKeepsFailure() async {
    let handled = FuturesCounter()
    let future = DeferredFuture<Int, FuturesError>.withTask(
      nonconformingErrorHandler: { _ in
        handled.increment()
        return FuturesError(-1)
      },
      task: { throw FuturesError(4) })
    #expect(await future.record().completion == .failure(FuturesError(4)))
    #expect(handled.value == 0)
  }

  @Test("withTask(nonconformingErrorHandler:) converts any other error")
  func nonconformingConvertsOthers() async {
    struct Other: Error {}
    let future = DeferredFuture<Int, FuturesError>.withTask(
      nonconformingErrorHandler: { $0 is Other ? FuturesError(9) : FuturesError(-1) },
      task: { throw Other() })
    #expect(await future.record().completion == .failure(FuturesError(9)))
  }

  @Test("withTask(nonconformingErrorHandler:) publishes the task's value")
  func nonconformingValue() async {
    let future = DeferredFuture<String, FuturesError>.withTask(
      nonconformingErrorHandler: { _ in FuturesError() }, task: { "ok" })
    #expect(await future.record().values(count: 1) == ["ok"])
  }

  // MARK: withTask, CompositeError forms

  struct Timeout: Error {}
  enum LoadError: CompositeError, Equatable {
    case timeout
    case futures(FuturesError)
    case unexpected(any Error)

    static let errorMap = CompositeErrorMap<LoadError>()
      .mapping(Timeout.self) { _ in .timeout }
      .mapping(FuturesError.self) { .futures($0) }

    static func == (lhs: LoadError, rhs: LoadError) -> Bool {
      switch (lhs, rhs) {
      case (.timeout, .timeout): true
      case (.futures(let a), .futures(let b)): a == b
      case (.unexpected(let a), .unexpected(let b)): "\(a)" == "\(b)"
      default: false
      }
    }
  }

  @Test("withTask with a CompositeError failure maps what the task throws through the error map")
  func compositeWithTaskMaps() async {
    let timedOut = DeferredFuture<Int, LoadError>.withTask { throw Timeout() }
    let mapped = DeferredFuture<Int, LoadError>.withTask { throw FuturesError(2) }
    let unexpected = DeferredFuture<Int, LoadError>.withTask { throw CancellationError() }
    let itself = DeferredFuture<Int, LoadError>.withTask { throw LoadError.timeout }
    #expect(await timedOut.record().completion == .failure(.timeout))
    #expect(await mapped.record().completion == .failure(.futures(FuturesError(2))))
    #expect(await unexpected.record().completion == .failure(.unexpected(CancellationError())))
    #expect(await itself.record().completion == .failure(.timeout))
  }

  @Test("withTask with a CompositeError failure publishes the task's value, and cancels its task")
  func compositeWithTaskValueAndCancel() async {
    #expect(await DeferredFuture<Int, LoadError>.withTask { 4 }.record().values(count: 1) == [4])
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let recorder = AnyDeferredFuture<Int, LoadError>.withTask {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }.record()
    await started.wait()
    recorder.cancel()
    await cancelled.wait()
  }

  // MARK: AnyDeferredFuture's statics

  @Test("AnyDeferredFuture.withTask and withTask(nonconformingErrorHandler:) are erased futures")
  func anyDeferredFutureWithTask() async {
    let typed = AnyDeferredFuture<Int, FuturesError>.withTask { () throws(FuturesError) in 1 }
    let lenient = AnyDeferredFuture<Int, FuturesError>.withTask(
      nonconformingErrorHandler: { _ in FuturesError(2) }, task: { throw CancellationError() })
    #expect(type(of: typed) == AnyDeferredFuture<Int, FuturesError>.self)
    #expect(await typed.record().values(count: 1) == [1])
    #expect(await lenient.record().completion == .failure(FuturesError(2)))
  }

  @Test("AnyDeferredFuture(attemptToFulfill:) runs its closure per subscription")
  func anyDeferredFutureAttemptToFulfillLabel() {
    let runs = FuturesCounter()
    let future = AnyDeferredFuture<Int, Never>(attemptToFulfill: { promise in
      promise(.success(runs.increment()))
    })
    #expect(runs.value == 0)
    #expect(future.record().values == [1])
    #expect(future.record().values == [2])
  }

  @Test("a trailing closure still picks AnyDeferredFuture's unlabelled initializer")
  func anyDeferredFutureTrailingClosure() {
    let future = AnyDeferredFuture<Int, Never> { promise in promise(.success(4)) }
    #expect(future.record().values == [4])
  }
}

extension MainQueueTests {
  @Suite("DeferredFuture.withTaskOnMainActor")
  struct DeferredFutureMainActorTaskTests {
    @Test("withTaskOnMainActor runs its task on the main queue, per subscription")
    func runsOnMain() async {
      let onMain = LockedBox<[Bool]>([])
      let future = DeferredFuture<Int, Never>.withTaskOnMainActor {
        onMain.withLock { $0.append(MainQueue.isCurrent) }
        return 3
      }
      #expect(onMain.withLock { $0 }.isEmpty)
      #expect(await future.record().values(count: 1) == [3])
      #expect(await future.record().values(count: 1) == [3])
      #expect(onMain.withLock { $0 } == [true, true])
    }

    @Test("withTaskOnMainActor fails with the typed error the task throws")
    func typedFailure() async {
      let future = DeferredFuture<Int, FuturesError>.withTaskOnMainActor {
        () throws(FuturesError) -> Int in throw FuturesError(6)
      }
      #expect(await future.record().completion == .failure(FuturesError(6)))
    }

    @Test("withTaskOnMainActor cancels its task when the subscriber cancels")
    func cancelsTask() async {
      let started = FuturesSignal()
      let cancelled = FuturesSignal()
      let future = DeferredFuture<Int, Never>.withTaskOnMainActor {
        started.fire()
        await awaitTaskCancellation()
        cancelled.fire()
        return 0
      }
      let recorder = future.record()
      await started.wait()
      recorder.cancel()
      await cancelled.wait()
      #expect(recorder.values.isEmpty)
    }

    @Test("withTaskOnMainActor(nonconformingErrorHandler:) converts other errors, keeps a Failure")
    func nonconforming() async {
      struct Other: Error {}
      let converted = DeferredFuture<Int, FuturesError>.withTaskOnMainActor(
        nonconformingErrorHandler: { _ in FuturesError(7) }, task: { throw Other() })
      let kept = AnyDeferredFuture<Int, FuturesError>.withTaskOnMainActor(
        nonconformingErrorHandler: { _ in FuturesError(7) }, task: { throw FuturesError(1) })
      #expect(await converted.record().completion == .failure(FuturesError(7)))
      #expect(await kept.record().completion == .failure(FuturesError(1)))
    }

    @Test("withTaskOnMainActor with a CompositeError failure runs on main and maps errors")
    func composite() async {
      let onMain = LockedBox<Bool?>(nil)
      let future = DeferredFuture<Int, DeferredFutureStaticsTests.LoadError>.withTaskOnMainActor {
        onMain.withLock { $0 = MainQueue.isCurrent }
        throw DeferredFutureStaticsTests.Timeout()
      }
      #expect(await future.record().completion == .failure(.timeout))
      #expect(onMain.withLock { $0 } == true)
      let erased = AnyDeferredFuture<Int, DeferredFutureStaticsTests.LoadError>
        .withTaskOnMainActor { 2 }
      #expect(await erased.record().values(count: 1) == [2])
    }

    @Test("AnyDeferredFuture.withTaskOnMainActor publishes the task's value")
    func erased() async {
      let future = AnyDeferredFuture<String, Never>.withTaskOnMainActor { "main" }
      #expect(await future.record().values(count: 1) == ["main"])
    }
  }
}
