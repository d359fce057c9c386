import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("DeferredFuture")
struct DeferredFutureTests {
  // MARK: Coldness

  @Test("the promise closure does not run at construction")
  func nothingRunsAtConstruction() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, Never> { promise in
      promise(.success(runs.increment()))
    }
    _ = future
    #expect(runs.value == 0)
  }

  @Test("each subscription runs the promise closure exactly once")
  func runsOncePerSubscription() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, Never> { promise in
      promise(.success(runs.increment()))
    }
    let first = future.record()
    #expect(runs.value == 1)
    let second = future.record()
    #expect(runs.value == 2)
    #expect(first.values == [1])
    #expect(second.values == [2])
  }

  @Test("a subscriber that cancels in receive(subscription:) never runs the work")
  func cancelDuringSubscriptionSkipsWork() {
    let work = ManualWork<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.cancel()
    work.future.subscribe(subscriber)
    #expect(work.runs == 0)
    #expect(subscriber.events == [.subscription])
  }

  // MARK: Delivery

  @Test("delivers the value, then finishes")
  func valueThenFinished() {
    let recorder = DeferredFuture<Int, Never> { $0(.success(7)) }.record()
    #expect(recorder.events == [.subscription, .value(7), .completion(.finished)])
  }

  @Test("a failure is delivered at once, without demand")
  func failureNeedsNoDemand() {
    let recorder = DeferredFuture<Int, FuturesError> { $0(.failure(FuturesError(2))) }
      .record(initialDemand: .none)
    #expect(recorder.events == [.subscription, .completion(.failure(FuturesError(2)))])
  }

  @Test("the value waits for demand, then comes with .finished")
  func valueWaitsForDemand() {
    let recorder = DeferredFuture<Int, Never> { $0(.success(1)) }.record(initialDemand: .none)
    #expect(recorder.events == [.subscription])
    recorder.request(.max(1))
    #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
  }

  @Test("a value fulfilled later waits for the demand requested earlier")
  func laterValueWithEarlierDemand() {
    let work = ManualWork<Int, Never>()
    let recorder = work.future.record(initialDemand: .max(1))
    #expect(recorder.values.isEmpty)
    work.fulfill(.success(4))
    #expect(recorder.events == [.subscription, .value(4), .completion(.finished)])
  }

  @Test("a value fulfilled on another thread is delivered")
  func fulfilledOnAnotherThread() async {
    let future = DeferredFuture<Int, Never> { promise in
      DispatchQueue.global().async { promise(.success(5)) }
    }
    let recorder = future.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [5])
  }

  @Test("a promise called twice delivers only the first result")
  func promiseTwiceDeliversOnce() {
    let recorder = DeferredFuture<Int, FuturesError> { promise in
      promise(.success(1))
      promise(.success(2))
      promise(.failure(FuturesError(1)))
    }.record()
    #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
  }

  @Test("stress: a promise called from many threads at once delivers exactly once")
  func stressPromiseFromManyThreads() async {
    for _ in 0..<100 {
      let work = ManualWork<Int, Never>()
      let recorder = work.future.record()
      let promise = work.promise()
      await concurrentPerform(8) { thread in promise(.success(thread)) }
      #expect(recorder.values.count == 1)
      #expect(recorder.completionCount == 1)
    }
  }

  @Test("stress: requests, the promise and a cancel racing deliver at most once")
  func stressRequestPromiseCancelRace() async {
    for _ in 0..<200 {
      let work = ManualWork<Int, Never>()
      let recorder = work.future.record(initialDemand: .none)
      let promise = work.promise()
      let cancels = Bool.random()
      await concurrentPerform(3) { thread in
        switch thread {
        case 0: promise(.success(1))
        case 1: recorder.request(.max(1))
        default: if cancels { recorder.cancel() }
        }
      }
      #expect(recorder.values.count <= 1)
      // A value comes with its completion, unless a cancel raced it: nothing follows a cancel,
      // not even the `.finished` after a value already on its way.
      #expect(recorder.completionCount <= recorder.values.count)
      if !cancels { #expect(recorder.completionCount == recorder.values.count) }
    }
  }

  // MARK: Cancellation and lifetime

  @Test("after a cancel, a later result is ignored")
  func cancelIgnoresLaterResult() {
    let work = ManualWork<Int, Never>()
    let recorder = work.future.record()
    recorder.cancel()
    work.fulfill(.success(1))
    #expect(recorder.events == [.subscription])
  }

  @Test("a cancelled subscription releases its subscriber, even if the work keeps the promise")
  func cancelReleasesSubscriber() {
    let work = ManualWork<Int, Never>()
    weak var weakOwner: FuturesOwner?
    var cancellable: AnyCancellable?
    do {
      let owner = FuturesOwner()
      weakOwner = owner
      cancellable = work.future.sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    #expect(work.runs == 1)
  }

  @Test("a finished subscription releases its subscriber, even if the work keeps the promise")
  func finishReleasesSubscriber() {
    let work = ManualWork<Int, Never>()
    weak var weakSubscriber: TestSubscriber<Int, Never>?
    do {
      let subscriber = TestSubscriber<Int, Never>()
      weakSubscriber = subscriber
      work.future.subscribe(subscriber)
      work.fulfill(.success(1))
      #expect(subscriber.values == [1])
    }
    #expect(weakSubscriber == nil)
  }

  @Test("a delivered value is released at once, while the subscriber keeps its subscription")
  func deliveredValueIsReleased() {
    let work = ManualWork<FuturesOwner, Never>()
    let subscriber = SubscriptionKeeper<FuturesOwner>()
    work.future.subscribe(subscriber)
    weak var weakValue: FuturesOwner?
    do {
      let value = FuturesOwner()
      weakValue = value
      work.fulfill(.success(value))
    }
    #expect(subscriber.received == 1)
    #expect(subscriber.subscription != nil)
    #expect(weakValue == nil)
  }

  @Test("the subscription is described as DeferredFuture and mirrors its subscriber")
  func subscriptionDescription() {
    let work = ManualWork<Int, Never>()
    let subscriber = SubscriptionKeeper<Int>(demand: .none)
    work.future.subscribe(subscriber)
    let subscription = subscriber.subscription
    #expect(subscription.map { String(describing: $0) } == "DeferredFuture")
    let labels = subscription.map { Mirror(reflecting: $0).children.compactMap(\.label) }
    #expect(labels == ["downstream", "hasAnyDemand"])
  }

  // MARK: Statics and erasure

  @Test("just publishes its value to every subscriber, then finishes")
  func just() {
    let future = DeferredFuture<Int, FuturesError>.just(3)
    #expect(future.record().events == [.subscription, .value(3), .completion(.finished)])
    #expect(future.record().values == [3])
  }

  @Test("fail fails every subscriber")
  func fail() {
    let future = DeferredFuture<Int, FuturesError>.fail(FuturesError(8))
    #expect(future.record().receivedCompletion == .failure(FuturesError(8)))
    #expect(future.record().receivedCompletion == .failure(FuturesError(8)))
  }

  @Test("eraseToAnyDeferredFuture keeps the future cold")
  func erasureKeepsColdness() {
    let runs = FuturesCounter()
    let erased: AnyDeferredFuture<Int, Never> = DeferredFuture { promise in
      promise(.success(runs.increment()))
    }.eraseToAnyDeferredFuture()
    #expect(runs.value == 0)
    #expect(erased.record().values == [1])
    #expect(erased.record().values == [2])
  }

  @Test("AnyDeferredFuture's own initializers and statics are cold too")
  func anyDeferredFutureInitializers() async {
    let runs = FuturesCounter()
    let promised = AnyDeferredFuture<Int, Never> { promise in promise(.success(runs.increment())) }
    let asynchronous = AnyDeferredFuture<Int, Never> { runs.increment() }
    #expect(runs.value == 0)
    #expect(promised.record().values == [1])
    let recorder = asynchronous.record()
    #expect(await recorder.values(count: 1) == [2])
    #expect(AnyDeferredFuture<Int, Never>.just(4).record().values == [4])
    #expect(
      AnyDeferredFuture<Int, FuturesError>.fail(FuturesError(1)).record().receivedCompletion
        == .failure(FuturesError(1)))
  }

  @Test("erasing twice, or wrapping an AnyDeferredFuture, gives the same behaviour")
  func erasingTwice() {
    let future = DeferredFuture<Int, Never>.just(1)
    let once = future.eraseToAnyDeferredFuture()
    let twice = once.eraseToAnyDeferredFuture()
    let wrapped = AnyDeferredFuture(once)
    #expect(twice.record().values == [1])
    #expect(wrapped.record().values == [1])
  }

  // MARK: The async initializer

  @Test("async: the work does not start at construction; each subscription runs it once")
  func asyncColdness() async {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, Never> { runs.increment() }
    #expect(runs.value == 0)
    let first = future.record()
    #expect(await first.completion == .finished)
    let second = future.record()
    #expect(await second.completion == .finished)
    #expect(runs.value == 2)
    #expect(first.values + second.values == [1, 2])
  }

  @Test("async: a thrown error fails the future")
  func asyncThrows() async {
    let recorder = DeferredFuture<Int, any Error> { throw FuturesError(3) }.record()
    let completion = await recorder.completion
    #expect(completionFailure(completion) as? FuturesError == FuturesError(3))
  }

  @Test("async: a closure with a typed throw fails with that error type")
  func asyncTypedThrow() async {
    let future = DeferredFuture<Int, FuturesError> { () throws(FuturesError) in
      throw FuturesError(6)
    }
    #expect(await future.record().completion == .failure(FuturesError(6)))
  }

  @Test("async: cancelling the subscription cancels the work's task")
  func asyncCancelCancelsTask() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let future = DeferredFuture<Int, Never> {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }
    let recorder = future.record()
    await started.wait()
    #expect(cancelled.count == 0)
    recorder.cancel()
    await cancelled.wait()
    #expect(recorder.events == [.subscription])
  }

  @Test("async: the work's task is not cancelled while the subscription lives")
  func asyncTaskNotCancelledWhileLive() async {
    let recorder = DeferredFuture<Bool, Never> {
      await Task.yield()
      return Task.isCancelled
    }.record()
    #expect(await recorder.values(count: 1) == [false])
  }

  @Test("async: the value waits for demand")
  func asyncValueWaitsForDemand() async {
    let finishedWork = FuturesSignal()
    let recorder = DeferredFuture<Int, Never> {
      defer { finishedWork.fire() }
      return 9
    }.record(initialDemand: .none)
    await finishedWork.wait()
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(await recorder.values(count: 1) == [9])
    #expect(await recorder.completion == .finished)
  }

  @Test("async: a subscriber that cancels in receive(subscription:) never starts a task")
  func asyncCancelDuringSubscription() {
    let runs = FuturesCounter()
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.cancel()
    DeferredFuture<Int, Never> { runs.increment() }.subscribe(subscriber)
    #expect(subscriber.events == [.subscription])
    #expect(runs.value == 0)
  }

  // MARK: value

  @Test("value runs the work and returns its value")
  func valueReturns() async throws {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, any Error> { runs.increment() * 10 }
    #expect(try await future.value == 10)
    #expect(try await future.value == 20)
    #expect(runs.value == 2)
  }

  @Test("value of a never-failing future needs no try")
  func valueOfNeverFailing() async {
    let future = DeferredFuture<String, Never> { promise in promise(.success("ok")) }
    let value: String = await future.value
    #expect(value == "ok")
  }

  @Test("value throws the failure, with the future's own error type")
  func valueThrows() async {
    let future = DeferredFuture<Int, FuturesError>.fail(FuturesError(5))
    do {
      _ = try await future.value
      Issue.record("expected a failure")
    } catch {
      let typed: FuturesError = error
      #expect(typed == FuturesError(5))
    }
  }

  @Test("value waits for a result fulfilled later, on another thread")
  func valueWaitsForLaterResult() async {
    let future = DeferredFuture<Int, Never> { promise in
      DispatchQueue.global().async { promise(.success(11)) }
    }
    #expect(await future.value == 11)
  }

  @Test("cancelling the task awaiting value cancels the work and throws CancellationError")
  func valueCancellation() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let future = DeferredFuture<Int, any Error> {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }
    let task = Task { try await future.value }
    await started.wait()
    task.cancel()
    await cancelled.wait()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test("a never-failing future's value ignores the awaiting task's cancellation")
  func valueIgnoresCancellationWhenNeverFailing() async {
    let work = ManualWork<Int, Never>()
    let future = work.future
    let task = Task { await future.value }
    // Waits for the work itself: the subscription reaches the subscriber before the work runs.
    await work.started.wait()
    task.cancel()
    work.fulfill(.success(3))
    #expect(await task.value == 3)
  }

  @Test("value can be awaited on the main actor, with a non-Sendable output")
  @MainActor
  func valueOnMainActor() async {
    let future = DeferredFuture<FuturesOwner, Never> { promise in
      promise(.success(FuturesOwner()))
    }
    let owner = await future.value
    owner.values.append(1)
    #expect(owner.values == [1])
  }
}

/// Keeps its subscription and counts the values it receives, without keeping them.
private final class SubscriptionKeeper<Input>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: used on the test's thread only.
  typealias Failure = Never
  private let demand: Subscribers.Demand
  private(set) var subscription: (any Subscription)?
  private(set) var received = 0

  init(demand: Subscribers.Demand = .unlimited) {
    self.demand = demand
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    if demand > .none { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    received += 1
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {}
}
