import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("DeferredFuture scheduling operators")
struct DeferredFutureSchedulingTests {
  // MARK: delay

  @Test("delay delivers the value and the completion after the interval")
  func delayDelivers() {
    let scheduler = DispatchQueue.test
    let recorder = DeferredFuture<Int, Never>.just(1)
      .delay(for: .seconds(2), scheduler: scheduler)
      .record()
    scheduler.advance(by: .milliseconds(1_999))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
  }

  @Test("delay starts counting when the work delivers, not at subscription")
  func delayCountsFromTheResult() {
    let scheduler = DispatchQueue.test
    let work = ManualWork<Int, Never>()
    let recorder = work.future.delay(for: .seconds(1), scheduler: scheduler).record()
    scheduler.advance(by: .seconds(5))
    work.fulfill(.success(3))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [3])
  }

  @Test("delay passes a failure on")
  func delayFailure() {
    let scheduler = DispatchQueue.test
    let recorder = DeferredFuture<Int, FuturesError>.fail(FuturesError(1))
      .delay(for: .seconds(1), scheduler: scheduler)
      .record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.receivedCompletion == .failure(FuturesError(1)))
  }

  @Test("delay runs the work once per subscription, at subscription")
  func delayIsCold() {
    let scheduler = DispatchQueue.test
    let work = ManualWork<Int, Never>()
    let delayed = work.future.delay(for: .seconds(1), scheduler: scheduler)
    #expect(work.runs == 0)
    _ = delayed.record()
    _ = delayed.record()
    #expect(work.runs == 2)
  }

  @Test("a cancelled delay delivers nothing")
  func delayCancel() {
    let scheduler = DispatchQueue.test
    let recorder = DeferredFuture<Int, Never>.just(1)
      .delay(for: .seconds(1), scheduler: scheduler)
      .record()
    recorder.cancel()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events == [.subscription])
  }

  // MARK: timeout

  @Test("timeout fails with the custom error when the value is late, and cancels the work")
  func timeoutFails() {
    let scheduler = DispatchQueue.test
    let cancels = FuturesCounter()
    let work = ManualWork<Int, FuturesError>()
    let recorder = work.future
      .handleEvents(receiveCancel: { cancels.increment() })
      .timeout(.seconds(5), scheduler: scheduler, customError: { FuturesError(99) })
      .record()
    scheduler.advance(by: .milliseconds(4_999))
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.events == [.subscription, .completion(.failure(FuturesError(99)))])
    #expect(cancels.value == 1)
    work.fulfill(.success(1))
    #expect(recorder.values.isEmpty)
  }

  @Test("timeout cancels the task of async work")
  func timeoutCancelsAsyncWork() async {
    let scheduler = DispatchQueue.test
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let recorder = DeferredFuture<Int, any Error> {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }
    .timeout(.seconds(1), scheduler: scheduler, customError: { FuturesError(1) })
    .record()
    await started.wait()
    scheduler.advance(by: .seconds(1))
    await cancelled.wait()
    #expect(completionFailure(recorder.receivedCompletion) as? FuturesError == FuturesError(1))
  }

  @Test("a value within the interval is delivered, and the timer no longer fires")
  func timeoutValueInTime() {
    let scheduler = DispatchQueue.test
    let work = ManualWork<Int, FuturesError>()
    let recorder = work.future
      .timeout(.seconds(5), scheduler: scheduler, customError: { FuturesError(99) })
      .record()
    scheduler.advance(by: .seconds(4))
    work.fulfill(.success(8))
    scheduler.advance()
    #expect(recorder.events == [.subscription, .value(8), .completion(.finished)])
    scheduler.advance(by: .seconds(10))
    #expect(recorder.completionCount == 1)
  }

  @Test("timeout runs the work once per subscription")
  func timeoutIsCold() {
    let scheduler = DispatchQueue.test
    let work = ManualWork<Int, FuturesError>()
    let timed = work.future.timeout(
      .seconds(1), scheduler: scheduler, customError: { FuturesError() })
    #expect(work.runs == 0)
    _ = timed.record()
    _ = timed.record()
    #expect(work.runs == 2)
  }

  // MARK: receive(on:) and subscribe(on:)

  @Test("receive(on:) delivers the result through the scheduler")
  func receiveOn() {
    let scheduler = DispatchQueue.test
    let recorder = DeferredFuture<Int, Never>.just(1).receive(on: scheduler).record()
    #expect(recorder.values.isEmpty)
    scheduler.advance()
    #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
  }

  @Test("receive(on:) delivers on the scheduler's queue")
  func receiveOnQueue() async {
    let queue = DispatchQueue(label: "DeferredFutureSchedulingTests.receiveOn")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let onQueue = DeferredFuture<Bool, Never>.just(true)
      .receive(on: queue)
      .map { _ in DispatchQueue.getSpecific(key: key) == true }
    #expect(await onQueue.value == true)
  }

  @Test("subscribe(on:) starts the work only when the scheduler runs it")
  func subscribeOn() {
    let scheduler = DispatchQueue.test
    let work = ManualWork<Int, Never>()
    let recorder = work.future.subscribe(on: scheduler).record()
    #expect(work.runs == 0)
    scheduler.advance()
    #expect(work.runs == 1)
    work.fulfill(.success(2))
    scheduler.advance()
    #expect(recorder.values == [2])
  }

  @Test("a subscribe(on:) cancelled before the scheduler runs delivers nothing")
  func subscribeOnCancelledEarly() {
    let scheduler = DispatchQueue.test
    let work = ManualWork<Int, Never>()
    let recorder = work.future.subscribe(on: scheduler).record()
    recorder.cancel()
    scheduler.advance()
    // The cancel reaches the future through the scheduler, after its work has started.
    #expect(work.runs == 1)
    work.fulfill(.success(1))
    scheduler.advance()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }
}
