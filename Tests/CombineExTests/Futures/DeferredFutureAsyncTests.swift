import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("DeferredFuture: async() and asyncThrowing()")
struct DeferredFutureAsyncTests {
  @Test("async() returns the value and runs the work once per call")
  func asyncReturnsValue() async {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, Never> { promise in
      DispatchQueue.global().async { promise(.success(runs.increment())) }
    }
    #expect(await future.async() == 1)
    #expect(await future.async() == 2)
  }

  @Test("asyncThrowing() returns the value")
  func asyncThrowingValue() async throws {
    let future = DeferredFuture<Int, FuturesError> { promise in
      DispatchQueue.global().async { promise(.success(42)) }
    }
    #expect(try await future.asyncThrowing() == 42)
  }

  @Test("asyncThrowing() throws the future's typed failure")
  func asyncThrowingFailure() async {
    let future = AnyDeferredFuture<Int, FuturesError>.fail(FuturesError(5))
    do {
      _ = try await future.asyncThrowing()
      Issue.record("asyncThrowing() returned instead of throwing")
    } catch {
      #expect(error == FuturesError(5))  // `error` is a FuturesError: the throw is typed
    }
  }

  @Test("asyncThrowing() on a future that cannot fail needs no try-catch of an error")
  func asyncThrowingNever() async {
    let future = DeferredFuture<String, Never>.just("x")
    #expect(await future.asyncThrowing() == "x")
  }

  @Test("futures awaited inside withTask compose, as in the original's tests")
  func chainedAwaits() async {
    @Sendable func work(_ value: Int) -> AnyDeferredFuture<Int, Never> {
      DeferredFuture<Int, Never> { promise in
        DispatchQueue.global().async { promise(.success(value)) }
      }.eraseToAnyDeferredFuture()
    }
    let chained = DeferredFuture<Int, Never>.withTask {
      let a = await work(10).async()
      let b = await work(20).async()
      return a + b
    }
    #expect(await chained.async() == 30)
  }

  @Test("cancelling the awaiting task cancels the subscription of an any-Error future")
  func cancellationEndsAsyncThrowing() async {
    let started = FuturesSignal()
    let cancelled = FuturesSignal()
    let future = DeferredFuture<Int, any Error>.withTask {
      started.fire()
      await awaitTaskCancellation()
      cancelled.fire()
      return 0
    }
    let waiting = Task { try await future.asyncThrowing() }
    await started.wait()
    waiting.cancel()
    await cancelled.wait()
    await #expect(throws: CancellationError.self) { try await waiting.value }
  }

  @Test("asyncOnMain() and asyncThrowingOnMain() return the value on the main actor")
  @MainActor
  func onMainForms() async throws {
    #expect(await DeferredFuture<Int, Never>.just(1).asyncOnMain() == 1)
    #expect(try await DeferredFuture<Int, FuturesError>.just(2).asyncThrowingOnMain() == 2)
  }
}
