import CombineExCore
import CombineExTesting
import Dispatch
import Testing

@Suite("delay(for:)")
struct DelayTests {
  @Test("each value arrives exactly one interval after it was sent")
  func delaysValues() {
    // One tick is 500 ms.
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("ab", tick: .milliseconds(500))
    scheduler.expect(
      input.delay(for: .seconds(1), scheduler: scheduler), toProduce: "--ab",
      tick: .milliseconds(500))
  }

  @Test("values sent together arrive together, in order")
  func keepsOrder() {
    let scheduler = DispatchQueue.test
    let recorder = [1, 2, 3].publisher.delay(for: .seconds(2), scheduler: scheduler).record()
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("the completion is delayed too")
  func delaysCompletion() {
    // One tick is 500 ms.
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("|", tick: .milliseconds(500))
    scheduler.expect(
      input.delay(for: .seconds(1), scheduler: scheduler), toProduce: "--|",
      tick: .milliseconds(500))
  }

  @Test("the upstream's failure is delayed and passed on")
  func delaysFailure() {
    let scheduler = DispatchQueue.test
    let recorder = Fail<Int, TestError>(error: TestError(1))
      .delay(for: .seconds(1), scheduler: scheduler).record()
    #expect(recorder.receivedCompletion == nil)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("an empty upstream finishes, late")
  func emptyUpstream() {
    let scheduler = DispatchQueue.test
    let recorder = Empty<Int, Never>().delay(for: .seconds(1), scheduler: scheduler).record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("demand passes to the upstream; demand returned on delivery is requested then")
  func demand() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = [1, 2, 3].publisher.probed(log)
      .delay(for: .seconds(1), scheduler: scheduler)
      .record(initialDemand: .max(1), demandAfterEachValue: .max(1))
    #expect(log.requests == [.max(1)])
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    #expect(log.requests == [.max(1), .max(1)])
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("after cancel, nothing scheduled is delivered and the upstream is cancelled")
  func cancel() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log).delay(for: .seconds(1), scheduler: scheduler).record()
    subject.send(1)
    recorder.cancel()
    scheduler.advance(by: .seconds(5))
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
      cancellable = subject.delay(for: .seconds(1), scheduler: scheduler)
        .sink { owner.values.append($0) }
    }
    subject.send(1)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    scheduler.advance(by: .seconds(1))
  }

  @Test("the tolerance defaults to the scheduler's minimum tolerance")
  func defaultTolerance() {
    let scheduler = DispatchQueue.test
    let delayed = Just(1).delay(for: .seconds(3), scheduler: scheduler)
    #expect(delayed.tolerance == scheduler.minimumTolerance)
    #expect(delayed.interval == .seconds(3))
    let tolerant = Just(1).delay(
      for: .seconds(3), tolerance: .milliseconds(5), scheduler: scheduler)
    #expect(tolerant.tolerance == .milliseconds(5))
  }

  @Test("on a real queue, values arrive after the interval")
  func realQueue() async {
    let queue = DispatchQueue(label: "delay")
    let start = DispatchTime.now()
    let recorder = Just(1).delay(for: .milliseconds(20), scheduler: queue).record()
    #expect(await recorder.values(count: 1) == [1])
    #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 20_000_000)
    #expect(await recorder.completion == .finished)
  }

  @Test("each event reads now once and is scheduled once, with the tolerance and options")
  func schedulerCalls() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, TestError>()
    let recorder = upstream.delay(
      for: .nanoseconds(200), tolerance: .nanoseconds(5), scheduler: scheduler, options: "o"
    ).record()
    #expect(scheduler.calls.isEmpty)
    upstream.send(1)
    scheduler.advance(to: 100)
    upstream.send(completion: .finished)
    #expect(
      scheduler.calls == [
        .now, .scheduleAfter(200, tolerance: 5, options: "o"),
        .now, .scheduleAfter(300, tolerance: 5, options: "o"),
      ])
    scheduler.advance(to: 300)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("nothing is scheduled for what arrives after the completion or before the subscription")
  func nothingScheduledOutsideTheSubscription() {
    let scheduler = CallRecordingScheduler()
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let recorder = upstream.delay(for: .nanoseconds(10), scheduler: scheduler).record()
    scheduler.clearCalls()  // The default tolerance was read.
    #expect(upstream.send(1) == .none)
    upstream.sendSubscription()
    upstream.send(completion: .finished)
    #expect(upstream.send(2) == .none)
    upstream.send(completion: .finished)
    #expect(scheduler.calls == [.now, .scheduleAfter(10, tolerance: 7, options: nil)])
    scheduler.advance(to: 10)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("the demand returned from each value is requested from the upstream, value by value")
  func demandPerValue() {
    let upstream = ScriptedUpstream<Int, Never>()
    var received: [Int] = []
    // On the immediate scheduler each delivery runs at once; a send from inside one is
    // delivered by the same loop, and its demand is still requested on its own.
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.request(.max(1)) },
      receiveValue: { value in
        received.append(value)
        if value < 2 { upstream.send(value + 1) }
        return .max(1)
      })
    upstream.delay(for: .zero, scheduler: ImmediateScheduler.shared).subscribe(subscriber)
    upstream.send(0)
    #expect(received == [0, 1, 2])
    #expect(upstream.requests == [.max(1), .max(1), .max(1), .max(1)])
  }

  @Test("a value delivered after the upstream completed still requests its demand")
  func demandAfterUpstreamCompletion() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.delay(for: .nanoseconds(10), scheduler: scheduler)
      .record(initialDemand: .max(1), demandAfterEachValue: .max(3))
    upstream.send(1)
    upstream.send(completion: .finished)
    scheduler.advance(to: 10)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
    #expect(upstream.requests == [.max(1), .max(3)])
  }

  @Test("stress: on a concurrent queue, values arrive one at a time, in order")
  func stressConcurrentQueue() async {
    let checker = SerialDeliveryChecker()
    let subject = PassthroughSubject<Int, Never>()
    let done = Flag()
    let cancellable = subject.delay(for: .microseconds(1), scheduler: DispatchQueue.global())
      .sink { value in
        checker.receive(value)
        if value == 1999 { done.raise() }
      }
    for value in 0..<2000 { subject.send(value) }
    #expect(await done.wait())
    #expect(checker.overlaps == 0)
    #expect(checker.values == Array(0..<2000))
    cancellable.cancel()
  }

  @Test("stress: demand returned from deliveries on other threads brings every value, in order")
  func stressDemandFromDeliveries() async {
    for _ in 0..<20 {
      // Each delivery's demand makes the sequence send the next value from the delivering
      // thread, while other threads of the queue may be delivering.
      let recorder = (0..<200).publisher
        .delay(for: .zero, scheduler: DispatchQueue.global())
        .record(initialDemand: .max(1), demandAfterEachValue: .max(1))
      #expect(await recorder.completion == .finished)
      #expect(recorder.values == Array(0..<200))
    }
  }

  @Test("its subscriber and subscription show no description, mirror or playground value")
  func reflection() throws {
    let upstream = AttachedSubscriberUpstream<Int, Never>()
    let keeper = SubscriptionKeeper<Int, Never>()
    upstream.delay(for: .seconds(1), scheduler: DispatchQueue.test).subscribe(keeper)
    #expect(DebuggerView(try #require(upstream.attached)).isPlain)
    upstream.send(subscription: NamedTestSubscription())
    #expect(DebuggerView(try #require(keeper.subscription)).isPlain)
  }
}
