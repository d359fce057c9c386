import CombineEx
import CombineExTesting
import Testing

/// A future that counts its runs and publishes the run number.
private func countingFuture(_ runs: FuturesCounter) -> DeferredFuture<Int, FuturesError> {
  DeferredFuture { promise in promise(.success(runs.increment())) }
}

@Suite("DeferredFuture erased to AnyDeferredPublisher")
struct DeferredFutureErasedPublisherTests {
  @Test("a DeferredFuture erased to AnyDeferredPublisher runs nothing before a subscription")
  func deferredFutureErasureRunsNothingEarly() {
    let runs = FuturesCounter()
    let publisher: AnyDeferredPublisher<Int, FuturesError> = countingFuture(runs)
      .eraseToAnyDeferredPublisher()
    let chained = publisher.eraseToAnyDeferredPublisher().map { $0 * 2 }
    #expect(runs.value == 0)
    #expect(chained.record().values == [2])
    #expect(runs.value == 1)
  }

  @Test("a DeferredFuture erased to AnyDeferredPublisher runs the work once per subscription")
  func deferredFutureErasureRunsOncePerSubscription() {
    let runs = FuturesCounter()
    let publisher = countingFuture(runs).eraseToAnyDeferredPublisher()
    let first = publisher.record()
    #expect(runs.value == 1)
    let second = publisher.record()
    #expect(runs.value == 2)
    #expect(first.values == [1])
    #expect(first.receivedCompletion == .finished)
    #expect(second.values == [2])
    #expect(second.receivedCompletion == .finished)
  }

  @Test("an AnyDeferredFuture erased to AnyDeferredPublisher stays cold")
  func anyDeferredFutureErasureStaysCold() {
    let runs = FuturesCounter()
    let future: AnyDeferredFuture<Int, FuturesError> = countingFuture(runs)
      .eraseToAnyDeferredFuture()
    let publisher: AnyDeferredPublisher<Int, FuturesError> = future.eraseToAnyDeferredPublisher()
    #expect(runs.value == 0)
    #expect(publisher.record().values == [1])
    #expect(publisher.record().values == [2])
    #expect(runs.value == 2)
  }

  @Test("an async future erased to AnyDeferredPublisher starts its work once per subscription")
  func asyncFutureErasureStaysCold() async {
    let runs = FuturesCounter()
    let publisher = DeferredFuture<Int, Never> { runs.increment() }
      .eraseToAnyDeferredFuture()
      .eraseToAnyDeferredPublisher()
    #expect(runs.value == 0)
    let first = publisher.record()
    #expect(await first.values(count: 1) == [1])
    let second = publisher.record()
    #expect(await second.values(count: 1) == [2])
    #expect(runs.value == 2)
  }

  @Test("filter and collect after erasure run the work once per subscription, never before")
  func multiValueOperatorsAfterErasure() {
    let runs = FuturesCounter()
    let odd = countingFuture(runs)
      .eraseToAnyDeferredPublisher()
      .filter { $0 % 2 == 1 }
      .collect()
      .eraseToAnyDeferredPublisher()
    #expect(runs.value == 0)
    #expect(odd.record().values == [[1]])
    #expect(odd.record().values == [[]])
    #expect(odd.record().values == [[3]])
    #expect(runs.value == 3)
  }

  @Test("the same chain after an AnyDeferredFuture's erasure is cold too")
  func multiValueOperatorsAfterAnyDeferredFutureErasure() {
    let runs = FuturesCounter()
    let labels = countingFuture(runs)
      .eraseToAnyDeferredFuture()
      .eraseToAnyDeferredPublisher()
      .flatMap { run in [run, run * 10].publisher.setFailureType(to: FuturesError.self) }
      .filter { $0 > 1 }
      .collect()
      .eraseToAnyDeferredPublisher()
    #expect(runs.value == 0)
    #expect(labels.record().values == [[10]])
    #expect(labels.record().values == [[2, 20]])
    #expect(runs.value == 2)
  }

  @Test("retry after erasure re-runs the work for each attempt")
  func retryAfterErasureReRunsTheWork() {
    let runs = FuturesCounter()
    let failing = DeferredFuture<Int, FuturesError> { promise in
      promise(.failure(FuturesError(runs.increment())))
    }
    let retried = failing.eraseToAnyDeferredPublisher().retry(2).eraseToAnyDeferredPublisher()
    #expect(runs.value == 0)
    #expect(retried.record().receivedCompletion == .failure(FuturesError(3)))
    #expect(runs.value == 3)
    #expect(retried.record().receivedCompletion == .failure(FuturesError(6)))
    #expect(runs.value == 6)
  }
}
