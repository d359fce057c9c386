import CombineExCore
import CombineExTesting
import Dispatch
import Testing

@Suite("throttle(for:scheduler:latest:)")
struct ThrottleTests {
  @Test("the first value is emitted at once, from the scheduler", arguments: [true, false])
  func firstValueAtOnce(latest: Bool) {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest)
      .record()
    subject.send(1)
    #expect(recorder.values == [])
    scheduler.advance()
    #expect(recorder.values == [1])
  }

  @Test("latest: true emits the last value of the interval, one interval after the first")
  func latestTrue() {
    // One tick is 100 ms: the interval after a ends at tick 10.
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("ab-(cd)", tick: .milliseconds(100))
    scheduler.expect(
      input.throttle(for: .seconds(1), scheduler: scheduler, latest: true),
      toProduce: "a---------d", tick: .milliseconds(100))
  }

  @Test("latest: false emits the first value of the interval")
  func latestFalse() {
    // One tick is 100 ms: the interval after a ends at tick 10.
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("ab-(cd)", tick: .milliseconds(100))
    scheduler.expect(
      input.throttle(for: .seconds(1), scheduler: scheduler, latest: false),
      toProduce: "a---------b", tick: .milliseconds(100))
  }

  @Test("values sent before the first emission collapse into it", arguments: [true, false])
  func collapseBeforeFirst(latest: Bool) {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest)
      .record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    scheduler.advance()
    #expect(recorder.values == [latest ? 3 : 1])
  }

  @Test("at most one value per interval while values keep coming", arguments: [true, false])
  func atMostOnePerInterval(latest: Bool) {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest)
      .record()
    for tenth in 0..<30 {
      subject.send(tenth)
      scheduler.advance(by: .milliseconds(100))
    }
    scheduler.advance(by: .seconds(1))
    // Emissions at 0 s, 1 s, 2 s and 3 s: the first value, then one per interval.
    #expect(recorder.values == (latest ? [0, 9, 19, 29] : [0, 1, 10, 20]))
  }

  @Test("a value arriving mid-interval is emitted when the interval since the last emission ends")
  func midInterval() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.throttle(for: .seconds(60), scheduler: scheduler, latest: false)
      .record()
    subject.send(0)
    scheduler.advance()
    scheduler.advance(by: .seconds(45))
    subject.send(1)
    scheduler.advance(by: .seconds(14))
    #expect(recorder.values == [0])
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [0, 1])
  }

  @Test("a value arriving after a full quiet interval is emitted at once again")
  func afterGap() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.throttle(for: .seconds(60), scheduler: scheduler, latest: true)
      .record()
    subject.send(0)
    scheduler.advance()
    scheduler.advance(by: .seconds(61))
    subject.send(1)
    scheduler.advance()
    #expect(recorder.values == [0, 1])
  }

  @Test("a completion while a value waits follows that value")
  func completionAfterPending() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true)
      .record()
    subject.send(1)
    scheduler.advance()
    subject.send(2)
    subject.send(completion: .failure(TestError(9)))
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance(by: .seconds(1))
    #expect(
      recorder.events == [.subscription, .value(1), .value(2), .completion(.failure(TestError(9)))])
  }

  @Test("a completion with nothing waiting is delivered from the scheduler at once")
  func completionAlone() {
    let scheduler = DispatchQueue.test
    let recorder = Empty<Int, Never>().throttle(
      for: .seconds(1), scheduler: scheduler, latest: true
    )
    .record()
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance()
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("asks the upstream for unlimited values; values without demand are dropped")
  func demand() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log)
      .throttle(for: .seconds(1), scheduler: scheduler, latest: false)
      .record(initialDemand: .max(1))
    #expect(log.requests == [.unlimited])
    subject.send(1)
    scheduler.advance()
    subject.send(2)
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values == [1])
    #expect(scheduler.pendingWorkCount == 0)
    recorder.request(.max(1))
    subject.send(3)
    scheduler.advance()
    #expect(recorder.values == [1, 3])
  }

  @Test("cancel drops a scheduled emission and cancels the upstream")
  func cancel() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log)
      .throttle(for: .seconds(1), scheduler: scheduler, latest: true)
      .record()
    subject.send(1)
    recorder.cancel()
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
      cancellable = subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true)
        .sink { owner.values.append($0) }
    }
    subject.send(1)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    scheduler.advance()
  }

  @Test("on the ImmediateScheduler, a send from inside the delivery is emitted too")
  func reentrantImmediate() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.throttle(
      for: .seconds(1), scheduler: ImmediateScheduler.shared, latest: true
    )
    .sink { value in
      received.append(value)
      if value < 3 { subject.send(value + 1) }
    }
    subject.send(0)
    #expect(received == [0, 1, 2, 3])
    _ = cancellable
  }

  @Test("on a real queue, the first value arrives")
  func realQueue() async {
    let queue = DispatchQueue(label: "throttle")
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.throttle(for: .milliseconds(10), scheduler: queue, latest: true)
      .record()
    subject.send(1)
    #expect(await recorder.values(count: 1) == [1])
  }

  @Test("makes Combine's scheduler calls: now at creation, subscription, each event, emission")
  func schedulerCalls() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.throttle(for: .nanoseconds(100), scheduler: scheduler, latest: true)
      .record()
    #expect(scheduler.calls == [.now, .now])
    upstream.send(1)
    upstream.send(2)
    #expect(scheduler.calls == [.now, .now, .now, .schedule(options: nil), .now])
    scheduler.advance(to: 0)
    #expect(recorder.values == [2])
    scheduler.clearCalls()
    upstream.send(3)
    // Due 100 after the emission: scheduled with the minimum tolerance, without options.
    #expect(
      scheduler.calls == [
        .now, .minimumTolerance,
        .scheduleAfter(100, tolerance: CallRecordingScheduler.tolerance, options: nil),
      ])
    upstream.send(completion: .finished)
    scheduler.clearCalls()
    scheduler.advance(to: 100)
    // An emission that carries the completion does not read the time.
    #expect(scheduler.calls.isEmpty)
    #expect(recorder.values == [2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a value takes its unit of demand when it is scheduled: later ones cannot replace it")
  func demandTakenWhenScheduled() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.throttle(for: .nanoseconds(100), scheduler: scheduler, latest: true)
      .record(initialDemand: .max(1))
    upstream.send(1)
    upstream.send(2)  // The demand went to 1: dropped, although `latest` is true.
    scheduler.advance(to: 0)
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    upstream.send(3)
    scheduler.advance(to: 100)
    #expect(recorder.values == [1, 3])
  }
}
