import CombineExCore
import CombineExTesting
import Dispatch
import Testing

@Suite("debounce(for:)")
struct DebounceTests {
  @Test("emits the latest value once the upstream has been quiet for the due time")
  func emitsAfterQuiet() {
    // One tick is 500 ms: b comes 500 ms after a, and is emitted 1 s after b.
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("ab", tick: .milliseconds(500))
    scheduler.expect(
      input.debounce(for: .seconds(1), scheduler: scheduler),
      toProduce: "---b", tick: .milliseconds(500))
  }

  @Test("separate bursts give separate values")
  func separateBursts() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("(ab)-c")
    scheduler.expect(input.debounce(for: .seconds(1), scheduler: scheduler), toProduce: "-b-c")
  }

  @Test("a finish drops the waiting value and is delivered from the scheduler")
  func finishDropsPending() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.debounce(for: .seconds(1), scheduler: scheduler).record()
    subject.send(1)
    subject.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance()
    #expect(recorder.receivedCompletion == .finished)
    scheduler.advance(by: .seconds(5))
    #expect(recorder.values == [])
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.debounce(for: .seconds(1), scheduler: scheduler).record()
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    subject.send(completion: .failure(TestError(2)))
    scheduler.advance()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let scheduler = DispatchQueue.test
    let recorder = Empty<Int, Never>().debounce(for: .seconds(1), scheduler: scheduler).record()
    scheduler.advance()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("asks the upstream for unlimited values and drops values without demand")
  func demand() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log).debounce(for: .seconds(1), scheduler: scheduler)
      .record(initialDemand: .max(1))
    #expect(log.requests == [.unlimited])
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    subject.send(3)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1, 3])
  }

  @Test("no demand at all: nothing is delivered")
  func noDemand() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.debounce(for: .seconds(1), scheduler: scheduler)
      .record(initialDemand: .none)
    subject.send(1)
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values.isEmpty)
  }

  @Test("cancel stops the timer, cancels the upstream and delivers nothing more")
  func cancel() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log).debounce(for: .seconds(1), scheduler: scheduler).record()
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
      cancellable = subject.debounce(for: .seconds(1), scheduler: scheduler)
        .sink { owner.values.append($0) }
    }
    subject.send(1)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a send from inside the delivery starts a new debounce")
  func reentrantSend() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.debounce(for: .seconds(1), scheduler: scheduler).sink { value in
      received.append(value)
      if value == 1 { subject.send(2) }
    }
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    #expect(received == [1])
    scheduler.advance(by: .seconds(1))
    #expect(received == [1, 2])
    _ = cancellable
  }

  @Test("each value replaces the previous timer, so only one piece of work waits")
  func replacesTimer() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.debounce(for: .seconds(1), scheduler: scheduler).record()
    for value in 0..<10 { subject.send(value) }
    #expect(scheduler.pendingWorkCount == 1)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [9])
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("on a real queue, only the last value of a burst arrives")
  func realQueue() async {
    let queue = DispatchQueue(label: "debounce")
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.debounce(for: .milliseconds(50), scheduler: queue).record()
    // The burst is sent from one block on the queue, so no timer can fire between two of its
    // values, however loaded the machine: only the last value's timer finds it still latest.
    await onQueue(queue) {
      for value in 0..<5 { subject.send(value) }
    }
    #expect(await recorder.values(count: 1) == [4])
    // Then finish: the completion is all that follows, no earlier value's timer delivers.
    await onQueue(queue) { subject.send(completion: .finished) }
    #expect(await recorder.completion(timeout: .seconds(30)) == .finished)
    #expect(recorder.values == [4])
  }

  @Test("the completion is scheduled without the options, as in Combine")
  func completionWithoutOptions() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.debounce(for: .nanoseconds(13), scheduler: scheduler, options: "o")
      .record()
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(
      scheduler.calls == [
        .now, .minimumTolerance,
        .scheduleRepeating(
          13, interval: 13, tolerance: CallRecordingScheduler.tolerance, options: "o"),
        .schedule(options: nil),
      ])
    scheduler.advance(to: 100)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }
}
