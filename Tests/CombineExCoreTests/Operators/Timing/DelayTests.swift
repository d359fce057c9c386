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
}
