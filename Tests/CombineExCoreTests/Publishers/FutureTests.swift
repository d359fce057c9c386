import CombineExCore
import CombineExTesting
import Foundation
import Testing

/// Keeps a future's promise so that a test can fulfill it later (from any thread).
private final class PromiseBox<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: `promise` is set once, inside the future's init, before any sharing.
  var promise: Future<Output, Failure>.Promise?

  func fulfill(_ result: Result<Output, Failure>) { promise?(result) }
}

/// A future whose promise the test holds.
private func pendingFuture<Output, Failure: Error>(
  _: Output.Type = Output.self, _: Failure.Type = Failure.self
) -> (Future<Output, Failure>, PromiseBox<Output, Failure>) {
  let box = PromiseBox<Output, Failure>()
  let future = Future<Output, Failure> { box.promise = $0 }
  return (future, box)
}

@Suite("Future")
struct FutureTests {
  @Test("runs its closure at once, in init, even without subscribers")
  func runsEagerly() {
    var runs = 0
    let future = Future<Int, Never> { promise in
      runs += 1
      promise(.success(1))
    }
    _ = future
    #expect(runs == 1)
  }

  @Test("runs its closure only once however many subscribe")
  func runsOnce() {
    var runs = 0
    let future = Future<Int, Never> { promise in
      runs += 1
      promise(.success(runs))
    }
    let first = future.record()
    let second = future.record()
    #expect(runs == 1)
    #expect(first.values == [1])
    #expect(second.values == [1])
  }

  @Test("delivers the value, then finishes")
  func deliversValueThenFinishes() {
    let recorder = Future<Int, Never> { $0(.success(7)) }.record()
    #expect(recorder.events == [.subscription, .value(7), .completion(.finished)])
  }

  @Test("replays the result to a subscriber that arrives after fulfillment")
  func replaysToLateSubscribers() {
    let (future, box) = pendingFuture(Int.self, Never.self)
    box.fulfill(.success(3))
    let late = future.record()
    let later = future.record()
    #expect(late.values == [3])
    #expect(late.receivedCompletion.isFinished)
    #expect(later.values == [3])
    #expect(later.receivedCompletion.isFinished)
  }

  @Test(
    "a subscriber that arrived before fulfillment receives the value when the promise is called")
  func deliversToWaitingSubscribers() {
    let (future, box) = pendingFuture(Int.self, Never.self)
    let recorder = future.record()
    #expect(recorder.isSubscribed)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    box.fulfill(.success(5))
    #expect(recorder.values == [5])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("withholds the value until the subscriber requests demand")
  func waitsForDemand() {
    let future = Future<Int, Never> { $0(.success(1)) }
    let recorder = future.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a value fulfilled while the subscriber has no demand waits for its request")
  func fulfilledWithoutDemand() {
    let (future, box) = pendingFuture(Int.self, Never.self)
    let recorder = future.record(initialDemand: .none)
    box.fulfill(.success(2))
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a request of zero stops the program, as in Combine")
  func requestOfZeroTraps() async {
    await #expect(processExitsWith: .failure) {
      let future = Future<Int, Never> { $0(.success(1)) }
      let recorder = future.record(initialDemand: .none)
      recorder.request(.none)
    }
  }

  @Test("a failure is delivered at once, without demand")
  func failureNeedsNoDemand() {
    let future = Future<Int, TestError> { $0(.failure(TestError(9))) }
    let recorder = future.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(9)))
  }

  @Test("a failure fulfilled later reaches every waiting subscriber")
  func laterFailure() {
    let (future, box) = pendingFuture(Int.self, TestError.self)
    let first = future.record()
    let second = future.record(initialDemand: .none)
    box.fulfill(.failure(TestError(1)))
    #expect(first.receivedCompletion == .failure(TestError(1)))
    #expect(second.receivedCompletion == .failure(TestError(1)))
  }

  @Test("only the first call of the promise counts")
  func firstPromiseCallWins() {
    let (future, box) = pendingFuture(Int.self, TestError.self)
    let early = future.record()
    box.fulfill(.success(1))
    box.fulfill(.success(2))
    box.fulfill(.failure(TestError(3)))
    let late = future.record()
    #expect(early.events == [.subscription, .value(1), .completion(.finished)])
    #expect(late.events == [.subscription, .value(1), .completion(.finished)])
  }

  @Test("a cancelled subscriber receives nothing, and the others still do")
  func cancelBeforeFulfillment() {
    let (future, box) = pendingFuture(Int.self, Never.self)
    let cancelled = future.record()
    let kept = future.record()
    cancelled.cancel()
    box.fulfill(.success(1))
    #expect(cancelled.values.isEmpty)
    #expect(cancelled.receivedCompletion == nil)
    #expect(kept.values == [1])
  }

  @Test("cancelling while waiting for demand discards the value")
  func cancelWhileWaitingForDemand() {
    let future = Future<Int, Never> { $0(.success(1)) }
    let recorder = future.record(initialDemand: .none)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel releases the subscriber")
  func cancelReleasesSubscriber() {
    weak var weakOwner: TestOwner?
    let (future, box) = pendingFuture(Int.self, Never.self)
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = future.sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    box.fulfill(.success(1))
  }

  @Test("delivery releases the subscriber")
  func deliveryReleasesSubscriber() {
    weak var weakOwner: TestOwner?
    let (future, box) = pendingFuture(Int.self, Never.self)
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = future.sink { owner.values.append($0) }
    }
    box.fulfill(.success(1))
    #expect(weakOwner == nil)
    _ = cancellable
  }

  @Test("a future whose promise was dropped is freed")
  func futureIsFreed() {
    weak var weakFuture: Future<Int, Never>?
    do {
      let future = Future<Int, Never> { _ in }
      weakFuture = future
      _ = future.record()
    }
    #expect(weakFuture == nil)
  }

  @Test("a subscriber may subscribe again from inside receive")
  func reentrantSubscribe() {
    let future = Future<Int, Never> { $0(.success(4)) }
    var inner: TestSubscriber<Int, Never>?
    var values: [Int] = []
    let cancellable = future.sink { value in
      values.append(value)
      if inner == nil { inner = future.record() }
    }
    #expect(values == [4])
    #expect(inner?.values == [4])
    _ = cancellable
  }

  @Test("calling the promise again from inside a subscriber is ignored, without deadlock")
  func reentrantPromise() {
    let (future, box) = pendingFuture(Int.self, Never.self)
    var values: [Int] = []
    let cancellable = future.sink { value in
      values.append(value)
      box.fulfill(.success(value + 1))
    }
    box.fulfill(.success(6))
    let late = future.record()
    #expect(values == [6])
    #expect(late.values == [6])
    _ = cancellable
  }

  @Test("a promise fulfilled on another thread reaches the subscriber")
  func fulfilledOnAnotherThread() async {
    let (future, box) = pendingFuture(Int.self, Never.self)
    let recorder = future.record()
    DispatchQueue.global().async { box.fulfill(.success(8)) }
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [8])
  }

  @Test("the promise is Sendable: it can be handed to a task")
  func promiseInTask() async {
    let future = Future<Int, Never> { promise in
      Task { promise(.success(11)) }
    }
    let recorder = future.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [11])
  }

  @Test("stress: 8 threads call the promise while 8 subscribe; everyone gets the one value")
  func stressPromiseAndSubscribe() async {
    for _ in 0..<200 {
      let (future, box) = pendingFuture(Int.self, Never.self)
      let recorders = LockedBox<[TestSubscriber<Int, Never>]>([])
      await concurrentPerform(16) { index in
        if index % 2 == 0 {
          box.fulfill(.success(index))
        } else {
          let recorder = future.record()
          recorders.withLock { $0.append(recorder) }
        }
      }
      let subscribers = recorders.withLock { $0 }
      let winner = future.record().values
      #expect(winner.count == 1)
      #expect(subscribers.count == 8)
      for recorder in subscribers {
        #expect(recorder.values == winner)
        #expect(recorder.completionCount == 1)
        #expect(recorder.receivedCompletion.isFinished)
      }
    }
  }
}
