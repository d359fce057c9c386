import CombineExCore
import CombineExTesting
import Synchronization
import Testing

/// Collects the events that `handleEvents` reports, in order.
private final class EventLog: @unchecked Sendable {
  // @unchecked Sendable: `events` is guarded by `lock`.
  private let lock = LockedBox<[String]>([])
  var events: [String] { lock.withLock { $0 } }
  func append(_ event: String) { lock.withLock { $0.append(event) } }
}

extension Publisher {
  /// `handleEvents` with every closure writing to `log`.
  fileprivate func logEvents(to log: EventLog) -> Publishers.HandleEvents<Self> {
    handleEvents(
      receiveSubscription: { _ in log.append("subscription") },
      receiveOutput: { log.append("output \($0)") },
      receiveCompletion: { log.append("completion \($0)") },
      receiveCancel: { log.append("cancel") },
      receiveRequest: { log.append("request \($0)") })
  }
}

@Suite("handleEvents")
struct HandleEventsTests {
  @Test("reports every event in order and passes it on")
  func reportsEvents() {
    let log = EventLog()
    let recorder = [1, 2].publisher.eraseToAnyPublisher().logEvents(to: log).record()
    #expect(
      log.events == [
        "subscription", "request unlimited", "output 1", "output 2", "completion finished",
      ])
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("each closure runs before the event reaches the subscriber")
  func closuresRunFirst() {
    let log = EventLog()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.handleEvents(
      receiveOutput: { log.append("handle \($0)") },
      receiveCompletion: { _ in log.append("handle completion") }
    ).sink(
      receiveCompletion: { _ in log.append("sink completion") },
      receiveValue: { log.append("sink \($0)") })
    subject.send(1)
    subject.send(completion: .finished)
    #expect(log.events == ["handle 1", "sink 1", "handle completion", "sink completion"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("reports the upstream's failure")
  func reportsFailure() {
    let log = EventLog()
    let recorder = Fail<Int, TestError>(error: TestError(2)).logEvents(to: log).record()
    #expect(
      log.events == ["subscription", "request unlimited", "completion failure(TestError(2))"])
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("an empty upstream reports the subscription and the finish")
  func emptyUpstream() {
    let log = EventLog()
    let recorder = Empty<Int, Never>().logEvents(to: log).record()
    #expect(log.events == ["subscription", "request unlimited", "completion finished"])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("receiveRequest sees every request and the demand returned from receive(_:)")
  func receiveRequestSeesAllDemand() {
    let log = EventLog()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.handleEvents(receiveRequest: { log.append("\($0)") })
      .record(initialDemand: .max(1), demandAfterEachValue: .max(2))
    #expect(upstream.send(1) == .max(2))
    recorder.request(.max(3))
    #expect(log.events == ["max(1)", "max(2)", "max(3)"])
    #expect(upstream.requests == [.max(1), .max(3)])
  }

  @Test("a subscriber that returns no demand reports no request")
  func noDemandNoRequest() {
    let log = EventLog()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.handleEvents(receiveRequest: { log.append("\($0)") })
      .record(initialDemand: .none)
    upstream.send(1)
    #expect(log.events.isEmpty)
    #expect(recorder.values == [1])
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let log = EventLog()
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().logEvents(to: log).record(
      initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(
      log.events == ["subscription", "request max(1)", "output 1", "request max(1)", "output 2"])
  }

  @Test("receiveCancel runs once, before the cancel reaches the upstream")
  func cancelReportedOnce() {
    let log = EventLog()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.handleEvents(receiveCancel: { log.append("cancel \(upstream.cancels)") }
    )
    .record()
    recorder.cancel()
    recorder.cancel()
    #expect(log.events == ["cancel 0"])
    #expect(upstream.cancels == 1)
  }

  @Test("nothing is reported or delivered after cancel")
  func nothingAfterCancel() {
    let log = EventLog()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.logEvents(to: log).record()
    recorder.cancel()
    upstream.send(1)
    upstream.send(completion: .finished)
    recorder.request(.max(1))
    #expect(log.events == ["subscription", "request unlimited", "cancel"])
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("nothing is reported after the completion, not even a cancel")
  func nothingAfterCompletion() {
    let log = EventLog()
    let recorder = Empty<Int, Never>().logEvents(to: log).record()
    recorder.cancel()
    recorder.request(.max(1))
    #expect(log.events == ["subscription", "request unlimited", "completion finished"])
  }

  @Test("cancel frees the pipeline, closures included")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.handleEvents(receiveOutput: { owner.values.append($0) })
        .sink { _ in }
    }
    subject.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a closure may send into the upstream re-entrantly")
  func reentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    let cancellable = subject.handleEvents(receiveOutput: { value in
      if value == 1 { subject.send(2) }
    }).sink { values.append($0) }
    subject.send(1)
    #expect(values == [2, 1])
    withExtendedLifetime(cancellable) {}
  }

  @Test("receiveCancel may touch the pipeline it cancels without deadlock")
  func reentrantCancel() {
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.handleEvents(receiveCancel: {
      subject.send(99)
      cancellable?.cancel()
    }).sink { values.append($0) }
    subject.send(1)
    cancellable?.cancel()
    #expect(values == [1])
  }

  @Test("the publisher's closures are settable properties, as in Combine")
  func settableClosures() {
    let log = EventLog()
    var publisher = Just(1).handleEvents()
    publisher.receiveOutput = { log.append("output \($0)") }
    let recorder = publisher.record()
    #expect(log.events == ["output 1"])
    #expect(recorder.values == [1])
  }

  @Test("stress: requests and cancels from many threads report each cancel once")
  func stressConcurrentRequestsAndCancel() async {
    let cancels = Atomic<Int>(0)
    let requests = Atomic<Int>(0)
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.handleEvents(
      receiveCancel: { cancels.add(1, ordering: .relaxed) },
      receiveRequest: { _ in requests.add(1, ordering: .relaxed) }
    ).record(initialDemand: .none)
    await concurrentPerform(200) { index in
      if index == 100 {
        recorder.cancel()
      } else if index.isMultiple(of: 2) {
        subject.send(index)
      } else {
        recorder.request(.max(1))
      }
    }
    recorder.cancel()
    #expect(cancels.load(ordering: .relaxed) == 1)
    #expect(recorder.values.count <= requests.load(ordering: .relaxed))
  }

  @Test("a request and a cancel made before the upstream's subscription are reported")
  func hooksBeforeSubscription() throws {
    var log: [String] = []
    let upstream = LateSubscriptionUpstream<Int, Never>()
    upstream.handleEvents(
      receiveSubscription: { _ in log.append("subscription") },
      receiveCancel: { log.append("cancel") },
      receiveRequest: { log.append("request \($0)") }
    ).subscribe(AnySubscriber<Int, Never>())
    let driver = try #require(upstream.operatorAsSubscription)
    driver.request(.max(1))
    driver.cancel()
    #expect(log == ["request max(1)", "cancel"])
  }

  @Test("a second upstream subscription is reported, then cancelled, as in Combine")
  func secondSubscriptionReported() {
    var log: [String] = []
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let recorder = upstream.handleEvents(receiveSubscription: { _ in log.append("subscription") })
      .record(initialDemand: .none)
    upstream.sendSubscription()
    upstream.sendSubscription()
    #expect(log == ["subscription", "subscription"])
    #expect(upstream.cancelCount == 1)
    recorder.cancel()
    #expect(upstream.cancelCount == 2)
  }
}
