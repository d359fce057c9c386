import CombineExCore
import CombineExTesting
import Dispatch
import Testing

@Suite("timeout(_:scheduler:options:customError:)")
struct TimeoutTests {
  @Test("finishes when no value arrives within the interval")
  func finishesOnTimeout() {
    let scheduler = DispatchQueue.test
    scheduler.expect(
      PassthroughSubject<String, Never>().timeout(.seconds(5), scheduler: scheduler),
      toProduce: "-----|")
  }

  @Test("fails with the custom error when one is given")
  func failsWithCustomError() {
    let scheduler = DispatchQueue.test
    let recorder = PassthroughSubject<Int, TestError>()
      .timeout(.seconds(5), scheduler: scheduler, customError: { TestError(42) }).record()
    scheduler.advance(by: .seconds(5))
    #expect(recorder.receivedCompletion == .failure(TestError(42)))
  }

  @Test("each value restarts the timer")
  func valuesRestartTimer() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("----a---b")
    scheduler.expect(
      input.timeout(.seconds(5), scheduler: scheduler), toProduce: "----a---b----|")
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("values are delivered from the scheduler")
  func valuesOnScheduler() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.timeout(.seconds(5), scheduler: scheduler).record()
    subject.send(1)
    #expect(recorder.values == [])
    scheduler.advance()
    #expect(recorder.values == [1])
  }

  @Test("a timeout cancels the upstream")
  func timeoutCancelsUpstream() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = PassthroughSubject<Int, Never>().probed(log)
      .timeout(.seconds(1), scheduler: scheduler).record()
    scheduler.advance(by: .seconds(1))
    #expect(log.cancels == 1)
    #expect(recorder.completionCount == 1)
  }

  @Test("the upstream's finish arrives from the scheduler and stops the timer")
  func upstreamFinishes() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.timeout(.seconds(5), scheduler: scheduler).record()
    subject.send(1)
    subject.send(completion: .finished)
    scheduler.advance()
    #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
    #expect(scheduler.pendingWorkCount == 0)
    scheduler.advance(by: .seconds(10))
    #expect(recorder.completionCount == 1)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let scheduler = DispatchQueue.test
    let recorder = Fail<Int, TestError>(error: TestError(3))
      .timeout(.seconds(5), scheduler: scheduler, customError: { TestError(42) }).record()
    scheduler.advance()
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
    scheduler.advance(by: .seconds(10))
    #expect(recorder.completionCount == 1)
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let scheduler = DispatchQueue.test
    let recorder = Empty<Int, Never>().timeout(.seconds(5), scheduler: scheduler).record()
    scheduler.advance()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("demand passes to the upstream; demand returned on delivery is requested then")
  func demand() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log).timeout(.seconds(5), scheduler: scheduler)
      .record(initialDemand: .max(1), demandAfterEachValue: .max(2))
    #expect(log.requests == [.max(1)])
    subject.send(1)
    scheduler.advance()
    #expect(recorder.values == [1])
    #expect(log.requests == [.max(1), .max(2)])
  }

  @Test("a first request made later restarts the timer")
  func firstRequestRestartsTimer() {
    let scheduler = DispatchQueue.test
    let recorder = PassthroughSubject<Int, Never>()
      .timeout(.seconds(5), scheduler: scheduler).record(initialDemand: .none)
    scheduler.advance(by: .seconds(3))
    recorder.request(.max(1))
    scheduler.advance(by: .seconds(4))
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("cancel stops the timer and the upstream; nothing arrives afterwards")
  func cancel() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log).timeout(.seconds(1), scheduler: scheduler).record()
    subject.send(1)
    recorder.cancel()
    #expect(scheduler.pendingWorkCount == 1)  // The delivery of 1, which will do nothing.
    scheduler.advance(by: .seconds(5))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
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
      cancellable = subject.timeout(.seconds(1), scheduler: scheduler)
        .sink { owner.values.append($0) }
    }
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("on a real queue, a silent upstream times out")
  func realQueue() async {
    let queue = DispatchQueue(label: "timeout")
    let recorder = PassthroughSubject<Int, TestError>()
      .timeout(.milliseconds(10), scheduler: queue, customError: { TestError(1) }).record()
    #expect(await recorder.completion == .failure(TestError(1)))
  }

  @Test("makes Combine's scheduler calls: a timer at the subscription and the first request")
  func schedulerCalls() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let timer = CallRecordingScheduler.Call.scheduleRepeating(
      13, interval: 13, tolerance: CallRecordingScheduler.tolerance, options: "o")
    let recorder = upstream.timeout(.nanoseconds(13), scheduler: scheduler, options: "o")
      .record(initialDemand: .max(2), demandAfterEachValue: .max(1))
    #expect(scheduler.calls == [.now, .minimumTolerance, timer, .now, .minimumTolerance, timer])
    scheduler.clearCalls()
    scheduler.advance(to: 10)
    upstream.send(1)
    #expect(
      scheduler.calls == [
        .now, .minimumTolerance,
        .scheduleRepeating(
          23, interval: 13, tolerance: CallRecordingScheduler.tolerance, options: "o"),
        .schedule(options: "o"),
      ])
    scheduler.advance(to: 11)
    #expect(recorder.values == [1])
    #expect(upstream.requests == [.max(2), .max(1)])
    scheduler.advance(to: 100)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a first request of zero restarts the timer too, and reaches the upstream")
  func firstRequestOfZero() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.timeout(.nanoseconds(13), scheduler: scheduler)
      .record(initialDemand: .none)
    scheduler.clearCalls()
    recorder.request(.none)
    #expect(scheduler.calls.count == 3)
    #expect(upstream.requests == [.none])
  }

  @Test("a cancel while the upstream's completion waits for delivery reaches the upstream")
  func cancelWhileCompletionWaits() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.timeout(.nanoseconds(13), scheduler: scheduler).record()
    upstream.send(completion: .finished)
    recorder.cancel()
    scheduler.advance(to: 100)
    #expect(upstream.cancels == 1)
    #expect(recorder.receivedCompletion == nil)
  }
}
