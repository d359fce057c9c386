import CombineEx
import CombineExTesting
import Foundation
import Testing

/// The original CombineEx's `handle…OnMainActor` hooks on futures. Each test calls them the way
/// user code does, without annotations: they must return a `DeferredFuture`, winning over the
/// `Publisher` forms (which return `Publishers.HandleEvents`).
@Suite("DeferredFuture: the handle…OnMainActor hooks", .serialized)
struct DeferredFutureEventHandlingOnMainActorTests {
  typealias IntFuture = DeferredFuture<Int, FuturesError>

  @Test("each hook returns a DeferredFuture, inferred, and they chain")
  func returnFutures() {
    let future = IntFuture.just(1)
    #expect(type(of: future.handleSubscriptionOnMainActor {}) == IntFuture.self)
    #expect(type(of: future.handleValueOnMainActor { _ in }) == IntFuture.self)
    #expect(type(of: future.handleErrorOnMainActor { _ in }) == IntFuture.self)
    #expect(type(of: future.handleFinishedOnMainActor {}) == IntFuture.self)
    #expect(type(of: future.handleCompletionOnMainActor { _ in }) == IntFuture.self)
    #expect(type(of: future.handleCancelOnMainActor {}) == IntFuture.self)
    #expect(type(of: future.handleValueOnMainActor()) == IntFuture.self)
    let chained = future.handleValueOnMainActor { _ in }.handleValue { _ in }
      .handleErrorOnMainActor { _ in }.eraseToAnyDeferredFuture()
    #expect(type(of: chained) == AnyDeferredFuture<Int, FuturesError>.self)
  }

  @Test("on a value, the handlers run on the main queue, after the events, in their order")
  func valueOnMainInOrder() async {
    let log = EventLog()
    let recorder = IntFuture.just(7)
      .handleSubscriptionOnMainActor { log.append("subscription main=\(MainQueue.isCurrent)") }
      .handleValueOnMainActor { log.append("value \($0) main=\(MainQueue.isCurrent)") }
      .handleErrorOnMainActor { _ in log.append("error") }
      .handleCompletionOnMainActor { log.append("completion \($0) main=\(MainQueue.isCurrent)") }
      .handleFinishedOnMainActor { log.append("finished main=\(MainQueue.isCurrent)") }
      .record()
    #expect(recorder.values == [7])
    #expect(recorder.receivedCompletion == .finished)
    await MainQueue.drain()
    #expect(
      log.values == [
        "subscription main=true", "value 7 main=true", "completion success(7) main=true",
        "finished main=true",
      ])
  }

  @Test("on a failure, the error, completion and finished handlers run on the main queue")
  func failureOnMain() async {
    let log = EventLog()
    let recorder = IntFuture.fail(FuturesError(3))
      .handleValueOnMainActor { _ in log.append("value") }
      .handleErrorOnMainActor { log.append("error \($0.id) main=\(MainQueue.isCurrent)") }
      .handleCompletionOnMainActor { log.append("completion \($0)") }
      .handleFinishedOnMainActor { log.append("finished") }
      .record()
    #expect(recorder.receivedCompletion == .failure(FuturesError(3)))
    await MainQueue.drain()
    #expect(
      log.values == [
        "error 3 main=true", "completion failure(FuturesError(3))", "finished",
      ])
  }

  @Test("the result moves on at once; the handler runs later, on the main queue")
  func asynchronous() async {
    let log = EventLog()
    let gate = DispatchSemaphore(value: 0)
    DispatchQueue.main.async { _ = gate.wait(timeout: .now() + 10) }  // the main queue is busy
    let recorder = IntFuture.just(1)
      .handleValueOnMainActor { _ in log.append("handler") }
      .handleValue { _ in log.append("passed") }
      .record()
    #expect(recorder.values == [1])
    #expect(log.values == ["passed"])
    gate.signal()
    await MainQueue.drain()
    #expect(log.values == ["passed", "handler"])
  }

  @Test("handleCancelOnMainActor runs after a cancel; the cancelled work gives nothing more")
  func cancel() async {
    let log = EventLog()
    var pending: IntFuture.Promise?
    let recorder = IntFuture { promise in pending = promise }
      .handleCancelOnMainActor { log.append("cancel main=\(MainQueue.isCurrent)") }
      .handleFinishedOnMainActor { log.append("finished") }
      .record()
    recorder.cancel()
    pending?(.success(1))
    await MainQueue.drain()
    #expect(recorder.values == [])
    #expect(log.values == ["cancel main=true"])
  }

  @Test("the hooks keep the future cold: each subscription runs the work and the handlers")
  func cold() async {
    let work = FuturesCounter()
    let log = EventLog()
    let future = IntFuture { promise in promise(.success(work.increment())) }
      .handleValueOnMainActor { log.append("value \($0)") }
    #expect(work.value == 0)
    #expect(future.record().values == [1])
    #expect(future.record().values == [2])
    await MainQueue.drain()
    #expect(log.values == ["value 1", "value 2"])
  }
}
