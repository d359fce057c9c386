import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("measureInterval(using:)")
struct MeasureIntervalTests {
  @Test("measures from the subscription, then between values")
  func measures() {
    // One tick is 500 ms.
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("----a(bc)", tick: .milliseconds(500))
    scheduler.expect(
      input.measureInterval(using: scheduler), toProduce: "----x(yz)",
      values: ["x": .seconds(2), "y": .milliseconds(500), "z": .zero], tick: .milliseconds(500))
  }

  @Test("values are emitted at once, without the scheduler")
  func synchronous() {
    let scheduler = RunLoop.test
    let recorder = [1, 2].publisher.measureInterval(using: scheduler).record()
    #expect(recorder.values == [.zero, .zero])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(5))
      .measureInterval(using: DispatchQueue.test).record()
    #expect(recorder.receivedCompletion == .failure(TestError(5)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().measureInterval(using: DispatchQueue.test).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("demand passes straight through")
  func demand() {
    let log = UpstreamLog()
    let recorder = [1, 2, 3].publisher.probed(log).measureInterval(using: DispatchQueue.test)
      .record(initialDemand: .max(1))
    #expect(recorder.values.count == 1)
    recorder.request(.max(1))
    #expect(recorder.values.count == 2)
    #expect(log.requests == [.max(1), .max(1)])
  }

  @Test("cancel reaches the upstream and releases the subscriber")
  func cancel() {
    let log = UpstreamLog()
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.probed(log).measureInterval(using: DispatchQueue.test)
        .sink { _ in owner.values.append(0) }
    }
    cancellable?.cancel()
    #expect(log.cancels == 1)
    #expect(weakOwner == nil)
  }

  @Test("the output type is the scheduler's stride")
  func outputType() {
    let measured: Publishers.MeasureInterval<Just<Int>, ImmediateScheduler> = Just(1)
      .measureInterval(using: ImmediateScheduler.shared)
    let recorder = measured.record()
    #expect(recorder.values == [ImmediateScheduler.SchedulerTimeType.Stride(0)])
  }

  @Test("the demand returned from a value is requested from the upstream, as in Combine")
  func returnedDemandIsRequested() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.measureInterval(using: DispatchQueue.test)
      .record(initialDemand: .max(1), demandAfterEachValue: .max(2))
    #expect(upstream.send(1) == .none)
    #expect(recorder.values == [.zero])
    #expect(upstream.requests == [.max(1), .max(2)])
  }

  @Test("the subscriber receives the operator's own subscription")
  func ownSubscription() {
    let upstream = ScriptedUpstream<Int, Never>()
    var received: (any Subscription)?
    let cancellable = upstream.measureInterval(using: DispatchQueue.test)
      .handleEvents(receiveSubscription: { received = $0 })
      .sink { _ in }
    #expect(received.map { "\($0)" } == "MeasureInterval")
    cancellable.cancel()
  }

  @Test("nothing is delivered after cancel, even from a careless upstream")
  func nothingAfterCancel() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.measureInterval(using: DispatchQueue.test).record()
    recorder.cancel()
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    #expect(upstream.cancels == 1)
  }

  @Test("the scheduler's now is read once at the subscription and once per value")
  func readsNowOncePerEvent() {
    let scheduler = CallRecordingScheduler()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.measureInterval(using: scheduler).record()
    #expect(scheduler.calls == [.now])
    scheduler.advance(to: 5)
    upstream.send(1)
    upstream.send(2)
    #expect(scheduler.calls == [.now, .now, .now])
    #expect(recorder.values == [.nanoseconds(5), .zero])
  }
}
