import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("Future from an async closure, and Future.value")
struct FutureAsyncTests {
  @Test("the task starts at init, without any subscriber")
  func startsEagerly() async {
    let started = Signal()
    let future = Future<Int, Never> {
      started.fire()
      return 1
    }
    await started.wait()
    _ = future
  }

  @Test("publishes the closure's value, then finishes")
  func publishesValue() async {
    let recorder = Future<Int, Never> { 42 }.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [42])
  }

  @Test("a thrown error fails the future")
  func thrownErrorFails() async {
    let recorder = Future<Int, any Error> { throw TestError(4) }.record()
    let completion = await recorder.completion
    #expect(completion?.failure as? TestError == TestError(4))
    #expect(recorder.values.isEmpty)
  }

  @Test("a closure with a typed throw fails with that error type")
  func typedThrow() async {
    let recorder = Future<Int, TestError> { () throws(TestError) in throw TestError(5) }.record()
    #expect(await recorder.completion == .failure(TestError(5)))
  }

  @Test("the work runs once however many subscribe")
  func runsOnce() async {
    let runs = Counter()
    let future = Future<Int, Never> { runs.increment() }
    let first = future.record()
    let second = future.record()
    #expect(await first.values(count: 1) == [1])
    #expect(await second.values(count: 1) == [1])
    #expect(runs.value == 1)
  }

  @Test("cancelling a subscriber does not cancel the task; later subscribers get the value")
  func cancelDoesNotCancelTask() async {
    let started = Signal()
    let proceed = Signal()
    let sawCancellation = LockedBox<Bool?>(nil)
    let future = Future<Int, Never> {
      started.fire()
      await proceed.wait()
      sawCancellation.withLock { $0 = Task.isCancelled }
      return 9
    }
    let early = future.record()
    await started.wait()
    early.cancel()
    proceed.fire()
    let late = future.record()
    #expect(await late.values(count: 1) == [9])
    #expect(sawCancellation.withLock { $0 } == false)
    #expect(early.values.isEmpty)
  }

  @Test("value returns the fulfilled value")
  func valueReturns() async {
    let future = Future<Int, Never> { promise in promise(.success(3)) }
    #expect(await future.value == 3)
  }

  @Test("value waits for a value fulfilled later, from another thread")
  func valueWaits() async {
    let future = Future<Int, Never> { promise in
      DispatchQueue.global().async { promise(.success(8)) }
    }
    #expect(await future.value == 8)
  }

  @Test("value throws the failure")
  func valueThrows() async {
    let future = Future<Int, TestError> { promise in promise(.failure(TestError(6))) }
    await #expect(throws: TestError(6)) { try await future.value }
  }

  @Test("cancelling the task awaiting value throws CancellationError when Failure is any Error")
  func valueCancellation() async {
    let future = Future<Int, any Error> { _ in }
    let task = Task { try await future.value }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test("a never-failing future's value ignores cancellation and returns the value")
  func valueIgnoresCancellationWhenNeverFailing() async {
    let box = LockedBox<Future<Int, Never>.Promise?>(nil)
    let future = Future<Int, Never> { promise in box.withLock { $0 = promise } }
    let task = Task { await future.value }
    task.cancel()
    box.withLock { $0 }?(.success(5))
    #expect(await task.value == 5)
  }

  @Test("value is usable from the main actor with a non-Sendable output")
  @MainActor
  func valueOnMainActor() async {
    let future = Future<TestOwner, Never> { promise in promise(.success(TestOwner())) }
    let owner = await future.value
    owner.values.append(1)
    #expect(owner.values == [1])
  }
}
