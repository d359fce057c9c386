import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("buffer(size:prefetch:whenFull:)")
struct BufferTests {
  // MARK: Normal path

  @Test("values the subscriber has not asked for wait in the buffer, in order")
  func buffersUntilRequested() {
    let subject = PassthroughSubject<Int, Never>()
    let buffered: Publishers.Buffer<PassthroughSubject<Int, Never>> = subject.buffer(
      size: 5, prefetch: .byRequest, whenFull: .dropNewest)
    let recorder = buffered.record(initialDemand: .none)
    for value in 1...3 { subject.send(value) }
    #expect(recorder.values.isEmpty)
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2])
    recorder.request(.max(5))
    #expect(recorder.values == [1, 2, 3])
    subject.send(4)
    #expect(recorder.values == [1, 2, 3, 4])
  }

  @Test("with demand, values pass straight through")
  func passesThroughWithDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher()
      .buffer(size: 1, prefetch: .keepFull, whenFull: .dropNewest)
      .record()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the prefetch and buffering strategies are what Combine has")
  func strategies() {
    #expect(Publishers.PrefetchStrategy.keepFull == .keepFull)
    #expect(Publishers.PrefetchStrategy.keepFull != .byRequest)
    #expect(Set([Publishers.PrefetchStrategy.keepFull, .byRequest, .keepFull]).count == 2)
    let strategy = Publishers.BufferingStrategy<TestError>.customError { TestError(1) }
    if case .customError(let makeError) = strategy { #expect(makeError() == TestError(1)) }
  }

  // MARK: Prefetch

  @Test(".keepFull asks for size values, then one more per value delivered")
  func keepFullDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
      .record(initialDemand: .none)
    #expect(upstream.requested == .max(3))
    for value in 1...3 { #expect(upstream.send(value)) }
    #expect(!upstream.send(4))
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2])
    #expect(upstream.requested == .max(5))
  }

  @Test(".byRequest asks for unlimited values, as in Combine")
  func byRequestDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest)
      .record(initialDemand: .max(1))
    #expect(upstream.requested == .unlimited)
    #expect(upstream.latest?.requests == 1)
    upstream.send(1)
    #expect(recorder.values == [1])
  }

  // MARK: When full

  @Test(".dropNewest drops the values that arrive when the buffer is full")
  func dropNewest() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest)
      .record(initialDemand: .none)
    for value in 1...5 { subject.send(value) }
    recorder.request(.max(10))
    #expect(recorder.values == [1, 2, 3])
  }

  @Test(".dropOldest drops the oldest waiting values to make room")
  func dropOldest() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest)
      .record(initialDemand: .none)
    for value in 1...5 { subject.send(value) }
    recorder.request(.max(10))
    #expect(recorder.values == [3, 4, 5])
  }

  @Test(
    ".customError cancels the upstream; as in Combine, it fails at the next request, after the values asked for"
  )
  func customError() {
    let subject = PassthroughSubject<Int, TestError>()
    var upstreamCancelled = false
    var errorsMade = 0
    let recorder = subject.handleEvents(receiveCancel: { upstreamCancelled = true })
      .buffer(
        size: 3, prefetch: .byRequest,
        whenFull: .customError {
          errorsMade += 1
          return TestError(9)
        }
      )
      .record(initialDemand: .max(1))
    subject.send(1)  // delivered at once
    for value in 2...4 { subject.send(value) }  // fills the buffer
    #expect(recorder.receivedCompletion == nil)
    subject.send(5)  // overflows
    #expect(upstreamCancelled)
    #expect(errorsMade == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)  // waits for the next request
    recorder.request(.max(5))
    #expect(recorder.values == [1, 2, 3, 4])
    #expect(recorder.receivedCompletion?.failure == TestError(9))
    recorder.request(.max(5))
    #expect(recorder.completionCount == 1)
  }

  @Test(".customError's failure drops the waiting values beyond the demand at the next request")
  func customErrorWithFiniteDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.buffer(
      size: 2, prefetch: .byRequest,
      whenFull: .customError {
        TestError(3)
      }
    )
    .record(initialDemand: .none)
    for value in 1...3 { subject.send(value) }  // 3 overflows
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(3))
  }

  @Test(
    "the upstream is asked before the subscriber gets its subscription; a completion it sends meanwhile waits for it"
  )
  func upstreamAskedFirst() {
    let events = LockedBox<[String]>([])
    let upstream = Just(7).handleEvents(receiveRequest: { _ in
      events.withLock { $0.append("upstream asked") }
    })
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { subscription in
        events.withLock { $0.append("subscription") }
        subscription.request(.max(1))
      },
      receiveValue: { value in
        events.withLock { $0.append("value \(value)") }
        return .none
      },
      receiveCompletion: { _ in events.withLock { $0.append("finished") } })
    upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
    // `Just` delivers its value and `.finished` inside the buffer's request, before the
    // subscriber has its subscription: both wait in the buffer, and `.keepFull` asks a finished
    // upstream for nothing more.
    #expect(events.withLock { $0 } == ["upstream asked", "subscription", "value 7", "finished"])
  }

  @Test("an upstream failure before the subscriber has its subscription waits for it")
  func failureBeforeDownstreamSubscription() {
    var events: [String] = []
    let subscriber = AnySubscriber<Int, TestError>(
      receiveSubscription: { _ in events.append("subscription") },
      receiveValue: { _ in .none },
      receiveCompletion: { events.append("\($0)") })
    // Fails while the buffer asks it for values, before the subscriber has its subscription.
    Just(1).tryMap { _ -> Int in throw TestError(1) }.mapError { $0 as? TestError ?? TestError(0) }
      .buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
      .subscribe(subscriber)
    #expect(events.first == "subscription")
    #expect(events.count == 2)
  }

  @Test("a buffer of size 0 keeps nothing")
  func sizeZero() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.buffer(size: 0, prefetch: .byRequest, whenFull: .dropOldest)
      .record(initialDemand: .none)
    subject.send(1)
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
  }

  // MARK: Completion

  @Test(".finished is delivered after every waiting value")
  func finishedWaitsForValues() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest)
      .record(initialDemand: .none)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an upstream failure comes after the values the subscriber asked for; the rest are dropped")
  func failureAfterDemandedValues() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest)
      .record(initialDemand: .none)
    for value in 1...4 { subject.send(value) }
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(recorder.values.isEmpty)
  }

  @Test("a failure that arrives during a delivery comes after the values the subscriber asked for")
  func failureDuringDelivery() {
    let subject = PassthroughSubject<Int, TestError>()
    var log: [String] = []
    var subscription: (any Subscription)?
    let subscriber = AnySubscriber<Int, TestError>(
      receiveSubscription: { subscription = $0 },
      receiveValue: { value in
        log.append("\(value)")
        if value == 1 { subject.send(completion: .failure(TestError(3))) }
        return .none
      },
      receiveCompletion: { log.append("\($0)") })
    subject.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
    for value in 1...5 { subject.send(value) }
    subscription?.request(.max(3))
    #expect(log == ["1", "2", "3", "failure(TestError(3))"])
    subscription?.request(.max(3))
    #expect(log.count == 4)
  }

  @Test("empty upstream finishes at once")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
      .record(initialDemand: .none)
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Cancel

  @Test("cancel reaches the upstream, drops waiting values, and nothing is delivered afterwards")
  func cancel() {
    weak var weakWaiting: TestOwner?
    let subject = PassthroughSubject<TestOwner, Never>()
    var upstreamCancelled = false
    let recorder = subject.handleEvents(receiveCancel: { upstreamCancelled = true })
      .buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest)
      .record(initialDemand: .none)
    do {
      let waiting = TestOwner()
      weakWaiting = waiting
      subject.send(waiting)
    }
    #expect(weakWaiting != nil)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(upstreamCancelled)
    #expect(weakWaiting == nil)
    #expect(recorder.values.isEmpty)
  }

  @Test(
    "cancelled during subscription: the upstream, asked for values first (as in Combine), is cancelled"
  )
  func cancelledDuringSubscription() {
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.cancel() }, receiveValue: { _ in .none },
      receiveCompletion: { _ in })
    upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
    #expect(upstream.requested == .max(2))
    #expect(upstream.isCancelled)
    #expect(!upstream.send(1))
  }

  @Test("the pipeline is freed after completion and after cancel")
  func freed() {
    let subject = PassthroughSubject<Int, Never>()
    let completed = LeakProbe<Int, Never>()
    let cancelled = LeakProbe<Int, Never>()
    subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(completed)
    subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(cancelled)
    subject.send(1)
    cancelled.cancel()
    #expect(cancelled.subscriptionObject == nil)
    subject.send(completion: .finished)
    #expect(completed.values == [1])
    #expect(completed.subscriptionObject == nil)
  }

  // MARK: Re-entrancy

  @Test("requesting from inside receive delivers the waiting values iteratively, not recursively")
  func reentrantRequest() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = ReentrantRequester<Int, Never>(firstRequests: [])
    subject.buffer(size: 1000, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
    for value in 0..<1000 { subject.send(value) }
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.values == Array(0..<1000))
    #expect(subscriber.deepest == 1)
  }

  // MARK: Stress

  @Test(
    "stress: eight threads requesting while the upstream sends: every value once, in order, serially"
  )
  func stressRequests() async {
    let upstream = ManualPublisher<Int, Never>()
    let subscriber = OrderedStressSubscriber<Int, Never>(initialDemand: .none)
    upstream.buffer(size: 16, prefetch: .keepFull, whenFull: .customError { fatalError() })
      .subscribe(subscriber)
    await runOnThreads(8) { thread in
      if thread == 0 {
        for value in 0..<4000 { upstream.sendWhenDemanded(value) }
        upstream.send(completion: .finished)
      } else {
        for _ in 0..<600 { subscriber.request(.max(1)) }
      }
    }
    #expect(subscriber.values == Array(0..<4000))
    #expect(subscriber.completions == 1)
    #expect(subscriber.overlaps == 0)
  }
}
