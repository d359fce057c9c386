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

  @Test("asks the upstream for unlimited values; groups wait for demand, in order")
  func demand() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log).collect(.byTimeOrCount(scheduler, .seconds(1), 2))
      .record(initialDemand: .none)
    #expect(log.requests == [.unlimited])
    for value in 1...5 { subject.send(value) }
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [])
    recorder.request(.max(1))
    #expect(recorder.values == [[1, 2]])
    recorder.request(.max(2))
    #expect(recorder.values == [[1, 2], [3, 4], [5]])
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
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1))
      .record(initialDemand: .none, demandAfterEachValue: .max(1))
    for value in 1...3 { subject.send(value) }
    recorder.request(.max(1))
    #expect(recorder.values == [[1], [2], [3]])
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
