import CombineExCore
import CombineExTesting
import Dispatch
import Testing

@Suite("collect(.byTime / .byTimeOrCount)")
struct CollectByTimeTests {
  @Test("byTime emits what arrived during each interval")
  func byTime() {
    // One tick is 500 ms: the intervals end at ticks 2 and 4.
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("(ab)--c", tick: .milliseconds(500))
    scheduler.expect(
      input.collect(.byTime(scheduler, .seconds(1))), toProduce: "--x-y",
      values: ["x": ["a", "b"], "y": ["c"]], tick: .milliseconds(500))
  }

  @Test("an interval without values emits nothing")
  func emptyInterval() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.collect(.byTime(scheduler, .seconds(1))).record()
    scheduler.advance(by: .seconds(3))
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [[1]])
  }

  @Test("byTimeOrCount emits as soon as the count is reached, and on each tick")
  func byTimeOrCount() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).record()
    subject.send(1)
    subject.send(2)
    #expect(recorder.values == [[1, 2]])
    subject.send(3)
    subject.send(4)
    subject.send(5)
    #expect(recorder.values == [[1, 2], [3, 4]])
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [[1, 2], [3, 4], [5]])
  }

  @Test("a finish emits what was collected, then finishes")
  func finishFlushes() {
    let scheduler = DispatchQueue.test
    let recorder = [1, 2, 3].publisher.collect(.byTime(scheduler, .seconds(1))).record()
    #expect(recorder.values == [[1, 2, 3]])
    #expect(recorder.receivedCompletion == .finished)
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("a failure is forwarded at once and what was collected is dropped")
  func failureDrops() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.collect(.byTime(scheduler, .seconds(1))).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(8)))
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == .failure(TestError(8)))
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().collect(.byTime(DispatchQueue.test, .seconds(1))).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("byTime asks one value per request of the subscriber and one more per value, as Combine")
  func byTimeRequestsOneAtATime() {
    // Combine's recorded sequence (CombineX's conformance spec, run against Apple's Combine):
    // .max(1) at the subscriber's request, .max(1) returned for each of 100 values, .max(1) at
    // the next request; 4 groups reach a subscriber whose demand allows 4.
    let scheduler = DispatchQueue.test
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = AnsweringSubscriber(initialDemand: .max(2)) { group in
      group.contains(0) || group.contains(5) ? .max(1) : .none
    }
    upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
    #expect(upstream.requests == [.max(1)])
    var returned: [Subscribers.Demand] = []
    for value in 0..<100 {
      if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
      returned.append(upstream.send(value))
    }
    #expect(returned == Array(repeating: .max(1), count: 100))
    #expect(subscriber.groups == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]])
    subscriber.subscription?.request(.max(2))
    #expect(upstream.requests == [.max(1), .max(1)])
  }

  @Test(
    "byTimeOrCount asks count values per unit of demand (requested, or returned for a full group)")
  func byTimeOrCountRequestsCountPerDemand() {
    // Combine's recorded sequence (CombineX's conformance spec, Apple's Combine since macOS
    // 11.3): requests [.max(4), .max(2)] (count 2 x the initial .max(2); then 2 x the .max(1)
    // returned for the full group [0, 1]; the .max(5) returned for the timer's [2] is not
    // asked upstream), nothing returned for any value, and these four groups.
    let scheduler = DispatchQueue.test
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = AnsweringSubscriber(initialDemand: .max(2)) { group in
      if group.contains(0) { return .max(1) }
      if group.contains(2) { return .max(5) }
      return .none
    }
    upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
    var returned: [Subscribers.Demand] = []
    for value in 0..<100 {
      if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
      // Like a subject, the upstream sends only what was asked for.
      let granted = returned.reduce(upstream.totalDemand, +)
      guard granted > .max(returned.count) else { continue }
      returned.append(upstream.send(value))
    }
    #expect(upstream.requests == [.max(4), .max(2)])
    #expect(returned == Array(repeating: .none, count: 6))
    #expect(subscriber.groups == [[0, 1], [2], [3, 4], [5]])
  }

  @Test("byTimeOrCount: a full group waits for demand; each request asks count values more")
  func byTimeOrCountGroupWaitsForDemand() {
    let scheduler = DispatchQueue.test
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2))
      .record(initialDemand: .none)
    #expect(upstream.requests == [])
    recorder.request(.max(2))
    #expect(upstream.requests == [.max(4)])
    upstream.send(1)
    scheduler.advance(by: .seconds(1))
    upstream.send(2)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [[1], [2]])
    upstream.send(3)
    upstream.send(4)
    #expect(recorder.values == [[1], [2]])
    recorder.request(.max(1))
    #expect(upstream.requests == [.max(4), .max(2)])
    #expect(recorder.values == [[1], [2], [3, 4]])
  }

  @Test("the finish waits until every waiting group has been demanded")
  func finishWaitsForDemand() {
    let scheduler = DispatchQueue.test
    let recorder = [1, 2, 3].publisher.collect(.byTimeOrCount(scheduler, .seconds(1), 2))
      .record(initialDemand: .max(1))
    #expect(recorder.values == [[1, 2]])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [[1, 2], [3]])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("cancel stops the timer, cancels the upstream and delivers nothing more")
  func cancel() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log).collect(.byTime(scheduler, .seconds(1))).record()
    subject.send(1)
    recorder.cancel()
    #expect(scheduler.pendingWorkCount == 0)
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values.isEmpty)
    #expect(log.cancels == 1)
  }

  @Test("cancel releases the subscriber")
  func cancelReleases() {
    let scheduler = DispatchQueue.test
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.collect(.byTime(scheduler, .seconds(1)))
        .sink { owner.values.append(contentsOf: $0) }
    }
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a request from inside a delivery takes the next waiting group")
  func reentrantRequest() {
    let scheduler = DispatchQueue.test
    // This upstream sends without being asked, so that three full groups wait for demand.
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 1))
      .record(initialDemand: .none, demandAfterEachValue: .max(1))
    for value in 1...3 { upstream.send(value) }
    recorder.request(.max(1))
    #expect(recorder.values == [[1], [2], [3]])
    // The request, then the demand returned for each full group, each asked upstream.
    #expect(upstream.requests == [.max(1), .max(1), .max(1), .max(1)])
  }

  @Test("on a real queue, values sent within one interval are grouped")
  func realQueue() async {
    let queue = DispatchQueue(label: "collect")
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.collect(.byTime(queue, .milliseconds(50))).record()
    // Both values are sent from one block on the queue, so the timer (which ticks on the
    // queue) cannot end the interval between them, however loaded the machine.
    await onQueue(queue) {
      subject.send(1)
      subject.send(2)
    }
    #expect(await recorder.values(count: 1) == [[1, 2]])
    await onQueue(queue) { subject.send(completion: .finished) }
    #expect(await recorder.completion(timeout: .seconds(30)) == .finished)
    #expect(recorder.values == [[1, 2]])
  }
}

/// A subscriber that answers each group with the demand `answer` gives, and keeps its
/// subscription so that a test can request more. Single-threaded tests only.
private final class AnsweringSubscriber: Subscriber {
  typealias Input = [Int]
  typealias Failure = TestError

  private let initialDemand: Subscribers.Demand
  private let answer: ([Int]) -> Subscribers.Demand
  private(set) var groups: [[Int]] = []
  private(set) var subscription: (any Subscription)?

  init(initialDemand: Subscribers.Demand, answer: @escaping ([Int]) -> Subscribers.Demand) {
    self.initialDemand = initialDemand
    self.answer = answer
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    subscription.request(initialDemand)
  }

  func receive(_ input: [Int]) -> Subscribers.Demand {
    groups.append(input)
    return answer(input)
  }

  func receive(completion: Subscribers.Completion<TestError>) {}
}
