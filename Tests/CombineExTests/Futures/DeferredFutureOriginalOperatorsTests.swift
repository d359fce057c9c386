import CombineEx
import CombineExTesting
import Foundation
import Testing

/// The original CombineEx's future operators. Each test calls the operator the way user code
/// does, without annotations, and checks the inferred type: a future operator must win over the
/// publisher operator of the same name (which returns a `Publishers.*` type).
@Suite("DeferredFuture: the original CombineEx's operators")
struct DeferredFutureOriginalOperatorsTests {
  typealias IntFuture = DeferredFuture<Int, FuturesError>

  // MARK: futureLift*

  @Test("futureLiftOutput hands the value and a promise to its closure; failures pass through")
  func futureLiftOutput() {
    let lifted = IntFuture.just(3).futureLiftOutput { value, promise in
      promise(.success("\(value)!"))
    }
    #expect(type(of: lifted) == DeferredFuture<String, FuturesError>.self)
    #expect(lifted.record().events == [.subscription, .value("3!"), .completion(.finished)])
    let failed = IntFuture.fail(FuturesError(2)).futureLiftOutput {
      (_, promise: @escaping IntFuture.Promise) in
      promise(.success(0))
    }
    #expect(failed.record().receivedCompletion == .failure(FuturesError(2)))
  }

  @Test("futureLiftFailure hands the failure and a promise to its closure; values pass through")
  func futureLiftFailure() {
    let lifted = IntFuture.fail(FuturesError(1)).futureLiftFailure {
      (error, promise: @escaping DeferredFuture<Int, FuturesError>.Promise) in
      promise(.failure(FuturesError(error.id + 10)))
    }
    #expect(lifted.record().receivedCompletion == .failure(FuturesError(11)))
    let value = IntFuture.just(4).futureLiftFailure { (_, promise: @escaping IntFuture.Promise) in
      promise(.success(0))
    }
    #expect(value.record().values == [4])
  }

  @Test("futureLiftResult hands the result to its closure")
  func futureLiftResult() {
    let lifted = IntFuture.fail(FuturesError(6)).futureLiftResult {
      (result, promise: @escaping DeferredFuture<String, FuturesError>.Promise) in
      promise(.success("\(result)"))
    }
    #expect(lifted.record().values == ["failure(FuturesError(6))"])
  }

  @Test("futureLiftFailureToOutput may recover with a value")
  func futureLiftFailureToOutput() {
    let recovered = IntFuture.fail(FuturesError(1)).futureLiftFailureToOutput { _, promise in
      promise(.success(-1))
    }
    #expect(recovered.record().values == [-1])
  }

  @Test("a lift's promise may be kept and fulfilled later, from another thread")
  func liftLaterOnAnotherThread() async {
    let lifted = IntFuture.just(1).futureLiftOutput { value, promise in
      DispatchQueue.global().async { promise(.success(value + 1)) }
    }
    #expect(await lifted.record().values(count: 1) == [2])
  }

  @Test("cancelling a lifted future cancels the upstream work, and ignores the lift's promise")
  func liftCancellation() {
    let work = ManualWork<Int, FuturesError>()
    let cancels = FuturesCounter()
    let promises = LockedBox<[IntFuture.Promise]>([])
    let lifted = work.future.handleEvents(receiveCancel: { cancels.increment() })
      .futureLiftOutput { _, promise in promises.withLock { $0.append(promise) } }
    let recorder = lifted.record()
    recorder.cancel()
    #expect(cancels.value == 1)
    let second = lifted.record()
    work.fulfill(.success(1))
    second.cancel()
    promises.withLock { $0.forEach { $0(.success(9)) } }
    #expect(recorder.values.isEmpty && second.values.isEmpty)
  }

  @Test("a lifted future runs the upstream work once per subscription")
  func liftIsCold() {
    let runs = FuturesCounter()
    let lifted = DeferredFuture<Int, Never> { $0(.success(runs.increment())) }
      .futureLiftOutput { value, promise in promise(.success(value)) }
    #expect(runs.value == 0)
    #expect(lifted.record().values == [1])
    #expect(lifted.record().values == [2])
  }

  // MARK: replaceNil, flatMapError

  @Test("replaceNil replaces a nil value and returns a DeferredFuture")
  func replaceNil() {
    let replaced = DeferredFuture<Int?, Never>.just(nil).replaceNil(with: 7)
    #expect(type(of: replaced) == DeferredFuture<Int, Never>.self)
    #expect(replaced.record().values == [7])
    #expect(DeferredFuture<Int?, Never>.just(2).replaceNil(with: 7).record().values == [2])
  }

  @Test("flatMapError replaces the failure with another future's result")
  func flatMapError() {
    struct Other: Error, Equatable {}
    let replaced = IntFuture.fail(FuturesError(1)).flatMapError { _ in
      DeferredFuture<Int, Other>.fail(Other())
    }
    #expect(type(of: replaced) == DeferredFuture<Int, Other>.self)
    #expect(replaced.record().receivedCompletion == .failure(Other()))
    let recovered = IntFuture.fail(FuturesError(1)).flatMapError { _ in
      AnyDeferredFuture<Int, Never>.just(5)
    }
    #expect(recovered.record().values == [5])
  }

  // MARK: encode, decode(item:decoder:)

  @Test("encode and decode(item:decoder:) round-trip a value and return futures")
  func coding() {
    struct Point: Codable, Equatable { let x: Int }
    let encoded = DeferredFuture<Point, Never>.just(Point(x: 3)).encode(encoder: JSONEncoder())
    #expect(type(of: encoded) == DeferredFuture<Data, any Error>.self)
    let decoded = encoded.decode(item: Point.self, decoder: JSONDecoder())
    #expect(type(of: decoded) == DeferredFuture<Point, any Error>.self)
    #expect(decoded.record().values == [Point(x: 3)])
  }

  @Test("decode(item:decoder:) fails with the decoding error")
  func decodingError() {
    let decoded = DeferredFuture<Data, Never>.just(Data("nope".utf8))
      .decode(item: [Int].self, decoder: JSONDecoder())
    let completion = decoded.record().receivedCompletion
    #expect(completionFailure(completion) is DecodingError)
  }

  // MARK: receiveInBackground

  @Test("receiveInBackground delivers on a global queue and returns a DeferredFuture")
  func receiveInBackground() async {
    let onMain = LockedBox<Bool?>(nil)
    let future = IntFuture.just(1).receiveInBackground(qos: .utility)
      .handleValue { _ in onMain.withLock { $0 = Thread.isMainThread } }
    #expect(type(of: future) == DeferredFuture<Int, FuturesError>.self)
    #expect(await future.record().values(count: 1) == [1])
    #expect(onMain.withLock { $0 } == false)
  }

  // MARK: handle*

  @Test("the handle* hooks return DeferredFuture, and chain")
  func handlersReturnFutures() {
    let future = IntFuture.just(1)
    #expect(type(of: future.handleSubscription {}) == IntFuture.self)
    #expect(type(of: future.handleValue { _ in }) == IntFuture.self)
    #expect(type(of: future.handleError { _ in }) == IntFuture.self)
    #expect(type(of: future.handleFinished {}) == IntFuture.self)
    #expect(type(of: future.handleCompletion { _ in }) == IntFuture.self)
    #expect(type(of: future.handleCancel {}) == IntFuture.self)
    #expect(type(of: future.handleValue()) == IntFuture.self)
    let chained = future.handleValue { _ in }.handleError { _ in }.handleValue { _ in }
    #expect(type(of: chained) == IntFuture.self)
  }

  @Test("handleValue and handleError see the value or the failure, in chain order")
  func handleValueAndError() {
    let log = EventLog()
    let value = IntFuture.just(1)
      .handleValue { log.append("value \($0)") }
      .handleError { _ in log.append("error") }
      .handleValue { log.append("value again \($0)") }
      .record()
    #expect(value.values == [1])
    let failure = IntFuture.fail(FuturesError(2))
      .handleValue { _ in log.append("value") }
      .handleError { log.append("error \($0.id)") }
      .record()
    #expect(failure.receivedCompletion == .failure(FuturesError(2)))
    #expect(log.values == ["value 1", "value again 1", "error 2"])
  }

  @Test("handleSubscription runs before the work, once per subscription")
  func handleSubscription() {
    let log = EventLog()
    let future = DeferredFuture<Int, Never> { promise in
      log.append("work")
      promise(.success(1))
    }.handleSubscription { log.append("subscribed") }
    _ = future.record()
    _ = future.record()
    #expect(log.values == ["subscribed", "work", "subscribed", "work"])
  }

  @Test("handleFinished runs when the future ends with a value or a failure, not on cancel")
  func handleFinished() {
    let ends = FuturesCounter()
    _ = IntFuture.just(1).handleFinished { ends.increment() }.record()
    _ = IntFuture.fail(FuturesError()).handleFinished { ends.increment() }.record()
    let work = ManualWork<Int, FuturesError>()
    let cancelled = work.future.handleFinished { ends.increment() }.record()
    cancelled.cancel()
    #expect(ends.value == 2)
  }

  @Test("handleCompletion receives the future's result")
  func handleCompletion() {
    let results = LockedBox<[Result<Int, FuturesError>]>([])
    _ = IntFuture.just(4).handleCompletion { result in results.withLock { $0.append(result) } }
      .record()
    _ = IntFuture.fail(FuturesError(3)).handleCompletion { result in
      results.withLock { $0.append(result) }
    }
    .record()
    #expect(results.withLock { $0 } == [.success(4), .failure(FuturesError(3))])
  }

  @Test("handleCancel runs when the subscriber cancels before the result")
  func handleCancel() {
    let cancels = FuturesCounter()
    let work = ManualWork<Int, FuturesError>()
    let recorder = work.future.handleCancel { cancels.increment() }.record()
    recorder.cancel()
    _ = IntFuture.just(1).handleCancel { cancels.increment() }.record()
    #expect(cancels.value == 1)
  }

  @Test(
    "a handleCompletion closure that switches on a Subscribers.Completion is the publisher hook")
  func completionPatternPicksPublisherHook() {
    let finished = FuturesCounter()
    let hooked = IntFuture.just(1).handleEvents(receiveCompletion: { completion in
      if case .finished = completion { finished.increment() }
    })
    _ = hooked.record()
    #expect(finished.value == 1)
  }

  // MARK: …DeferredFuture aliases

  @Test("the …DeferredFuture aliases return futures and do what they are named after")
  func aliases() {
    struct Box: Encodable { let x: Int }
    let one = IntFuture.just(1)
    #expect(one.mapDeferredFuture { $0 + 1 }.record().values == [2])
    #expect(
      DeferredFuture<String, Never>.just("ab").mapDeferredFuture(\.count).record().values == [2])
    #expect(one.tryMapDeferredFuture { $0 * 3 }.record().values == [3])
    #expect(
      IntFuture.fail(FuturesError(1)).mapErrorDeferredFuture { FuturesError($0.id + 1) }.record()
        .receivedCompletion == .failure(FuturesError(2)))
    #expect(
      DeferredFuture<Int?, Never>.just(nil).replaceNilDeferredFuture(with: 0).record().values
        == [0])
    #expect(one.flatMapDeferredFuture { IntFuture.just($0 + 5) }.record().values == [6])
    #expect(
      IntFuture.fail(FuturesError()).flatMapErrorDeferredFuture { _ in
        DeferredFuture<Int, Never>.just(8)
      }.record().values == [8])
    #expect(
      DeferredFuture<Int, Never>.just(1).setFailureTypeDeferredFuture(to: FuturesError.self)
        .record().values == [1])
    #expect(
      IntFuture.fail(FuturesError()).replaceErrorDeferredFuture(with: 9).record().values == [9])
    #expect(one.combineLatestDeferredFuture(one).record().values.map { $0.0 + $0.1 } == [2])
    #expect(one.combineLatestDeferredFuture(one, +).record().values == [2])
    #expect(one.combineLatestDeferredFuture(one, one) { $0 + $1 + $2 }.record().values == [3])
    #expect(
      one.combineLatestDeferredFuture(one, one, one) { $0 + $1 + $2 + $3 }.record().values == [4])
    #expect(one.combineLatestDeferredFuture(one, one).record().values.count == 1)
    #expect(one.combineLatestDeferredFuture(one, one, one).record().values.count == 1)
    #expect(
      IntFuture.fail(FuturesError()).catchDeferredFuture { _ in IntFuture.just(3) }.record().values
        == [3])
    #expect(
      DeferredFuture<Int, any Error>.fail(FuturesError()).tryCatchDeferredFuture { _ in
        DeferredFuture<Int, any Error>.just(4)
      }.record().values == [4])
    #expect(one.retryDeferredFuture(2).record().values == [1])
    let json = DeferredFuture<Box, Never>.just(Box(x: 1)).encodeDeferredFuture(
      encoder: JSONEncoder())
    #expect(
      json.decodeDeferredFuture(item: [String: Int].self, decoder: JSONDecoder()).record().values
        == [["x": 1]])
  }

  // MARK: attemptToFulfill, createPublisher

  @Test("attemptToFulfill runs the work once per call and calls the promise with its result")
  func attemptToFulfill() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, Never> { $0(.success(runs.increment())) }
    let results = LockedBox<[Int]>([])
    future.attemptToFulfill { result in results.withLock { $0.append(result.get()) } }
    future.map { $0 * 10 }.attemptToFulfill { result in
      results.withLock { $0.append(result.get()) }
    }
    #expect(results.withLock { $0 } == [1, 20])
  }

  @Test("attemptToFulfill reports a failure, and a later result from another thread")
  func attemptToFulfillLater() async {
    let signal = FuturesSignal()
    let results = LockedBox<[Result<Int, FuturesError>]>([])
    let future = IntFuture { promise in
      DispatchQueue.global().async { promise(.failure(FuturesError(4))) }
    }
    future.attemptToFulfill { result in
      results.withLock { $0.append(result) }
      signal.fire()
    }
    await signal.wait()
    #expect(results.withLock { $0 } == [.failure(FuturesError(4))])
  }

  @Test("attemptToFulfill's run is freed with work that never reports a result")
  func attemptToFulfillFreesAbandonedRun() {
    weak var weakOwner: FuturesOwner?
    do {
      let owner = FuturesOwner()
      weakOwner = owner
      let future = DeferredFuture<Int, Never> { _ in }  // drops its promise
      future.attemptToFulfill { _ in owner.values.append(1) }
    }
    #expect(weakOwner == nil)
  }

  @Test("createPublisher makes Combine's eager Future: the work runs once, at the call")
  func createPublisher() {
    let runs = FuturesCounter()
    let future = DeferredFuture<Int, Never> { $0(.success(runs.increment())) }
    let eager = future.createPublisher()
    #expect(runs.value == 1)
    #expect(eager.record().values == [1])
    #expect(eager.record().values == [1])
    #expect(type(of: eager) == DeferredFuture<Int, Never>.WrappedFuture.self)
  }

  // MARK: Deadlines (the original's delay and timeout with a scheduler time)

  @Test("delay(for:) with a scheduler time delivers the result at that time")
  func delayUntilDeadline() {
    let scheduler = DispatchQueue.test
    let delayed = IntFuture.just(1).delay(
      for: scheduler.now.advanced(by: .seconds(2)), scheduler: scheduler)
    #expect(type(of: delayed) == IntFuture.self)
    let recorder = delayed.record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
  }

  @Test("an interval still picks the interval form of delay")
  func delayIntervalStillWorks() {
    let scheduler = DispatchQueue.test
    let recorder = IntFuture.just(1).delay(for: .seconds(1), scheduler: scheduler).record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
  }

  @Test("timeout with a scheduler time fails with customError at the deadline, cancelling the work")
  func timeoutAtDeadline() {
    let scheduler = DispatchQueue.test
    let cancels = FuturesCounter()
    let work = ManualWork<Int, FuturesError>()
    let guarded = work.future.handleCancel { cancels.increment() }
      .timeout(
        scheduler.now.advanced(by: .seconds(5)), scheduler: scheduler,
        customError: { FuturesError(99) })
    let recorder = guarded.record()
    scheduler.advance(by: .seconds(4))
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.receivedCompletion == .failure(FuturesError(99)))
    #expect(cancels.value == 1)
  }

  @Test("timeout with a scheduler time and no customError leaves the future unchanged")
  func timeoutWithoutErrorNeverFires() {
    let scheduler = DispatchQueue.test
    let work = ManualWork<Int, FuturesError>()
    let recorder = work.future.timeout(
      scheduler.now.advanced(by: .seconds(1)), scheduler: scheduler
    )
    .record()
    scheduler.advance(by: .seconds(10))
    #expect(recorder.receivedCompletion == nil)
    work.fulfill(.success(3))
    #expect(recorder.values == [3])
  }
}

extension MainQueueTests {
  @Suite("DeferredFuture: receiveOnMain, receiveOnMainAsync, receiveOnMainRunLoop")
  struct DeferredFutureMainThreadTests {
    @Test("receiveOnMain delivers on the main queue and returns a DeferredFuture")
    func receiveOnMain() async {
      let log = EventLog()
      let future = DeferredFuture<Int, Never> { promise in
        DispatchQueue.global().async { promise(.success(1)) }
      }.receiveOnMain()
      #expect(type(of: future) == DeferredFuture<Int, Never>.self)
      let recorder = future.handleValue { _ in log.append("main: \(MainQueue.isCurrent)") }
        .record()
      #expect(await recorder.values(count: 1) == [1])
      #expect(log.values == ["main: true"])
    }

    @Test("receiveOnMain delivers at once when the result arrives on the main queue")
    func receiveOnMainInline() async {
      // UIScheduler delivers at once only when no hop is waiting on the main queue (it keeps
      // their order), and tests running at the same time may have one waiting: try again, a
      // bounded number of times. A scheduler that never delivers at once fails every attempt.
      var attempts: [[String]] = []
      for _ in 0..<50 {
        let log = EventLog()
        await MainActor.run {
          let recorder = DeferredFuture<Int, Never>.just(1).receiveOnMain()
            .handleValue { _ in log.append("value") }.record()
          log.append("subscribed")
          _ = recorder
        }
        attempts.append(log.values)
        if log.values == ["value", "subscribed"] { break }
        try? await Task.sleep(for: .milliseconds(10))
      }
      #expect(attempts.last == ["value", "subscribed"], "attempts: \(attempts)")
    }

    @Test("receiveOnMainAsync always hops to the main queue")
    func receiveOnMainAsync() async {
      let log = EventLog()
      let future = DeferredFuture<Int, Never>.just(2).receiveOnMainAsync()
      #expect(type(of: future) == DeferredFuture<Int, Never>.self)
      let recorder = await MainActor.run {
        let recorder = future.handleValue { _ in log.append("value") }.record()
        log.append("subscribed")
        return recorder
      }
      #expect(await recorder.values(count: 1) == [2])
      #expect(log.values == ["subscribed", "value"])
    }

    @Test("receiveOnMainRunLoop returns a DeferredFuture")
    func receiveOnMainRunLoopType() {
      let future = DeferredFuture<Int, Never>.just(3).receiveOnMainRunLoop()
      #expect(type(of: future) == DeferredFuture<Int, Never>.self)
    }
  }
}
