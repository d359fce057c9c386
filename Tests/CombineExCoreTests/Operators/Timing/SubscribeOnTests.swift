import CombineExCore
import CombineExTesting
import Dispatch
import Foundation
import Testing

@Suite("subscribe(on:)")
struct SubscribeOnTests {
  @Test("the upstream is subscribed to only when the scheduler runs")
  func subscribesOnScheduler() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = [1, 2, 3].publisher.probed(log).subscribe(on: scheduler).record()
    #expect(log.subscriptions == 0)
    #expect(!recorder.isSubscribed)
    scheduler.advance()
    #expect(log.subscriptions == 1)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("requests reach the upstream through the scheduler, in order")
  func requestsThroughScheduler() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = [1, 2, 3].publisher.probed(log).subscribe(on: scheduler)
      .record(initialDemand: .max(1))
    scheduler.advance()
    #expect(log.requests == [.max(1)])
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    recorder.request(.max(1))
    #expect(log.requests == [.max(1)])
    #expect(recorder.values == [1])
    scheduler.advance()
    #expect(log.requests == [.max(1), .max(1), .max(1)])
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("values pass through at once, on the sending thread")
  func valuesAreSynchronous() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.subscribe(on: scheduler).record()
    scheduler.advance()
    subject.send(1)
    #expect(recorder.values == [1])
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let scheduler = DispatchQueue.test
    let recorder = Fail<Int, TestError>(error: TestError(4)).subscribe(on: scheduler).record()
    scheduler.advance()
    #expect(recorder.receivedCompletion == .failure(TestError(4)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let scheduler = DispatchQueue.test
    let recorder = Empty<Int, Never>().subscribe(on: scheduler).record()
    scheduler.advance()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("cancel stops deliveries at once and reaches the upstream through the scheduler")
  func cancelThroughScheduler() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.probed(log).subscribe(on: scheduler).record()
    scheduler.advance()
    recorder.cancel()
    subject.send(1)
    #expect(recorder.values.isEmpty)
    #expect(log.cancels == 0)
    scheduler.advance()
    #expect(log.cancels == 1)
  }

  @Test("a request made before a cancel reaches the upstream before the cancel")
  func requestThenCancel() {
    let scheduler = DispatchQueue.test
    let log = UpstreamLog()
    let recorder = [1, 2].publisher.probed(log).subscribe(on: scheduler)
      .record(initialDemand: .none)
    scheduler.advance()
    recorder.request(.max(1))
    recorder.cancel()
    recorder.request(.max(1))
    scheduler.advance()
    #expect(log.requests == [.max(1)])
    #expect(log.cancels == 1)
    #expect(recorder.values.isEmpty)
  }

  @Test("cancel releases the subscriber and, once run, the whole pipeline")
  func cancelReleases() {
    let scheduler = DispatchQueue.test
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.subscribe(on: scheduler).sink { owner.values.append($0) }
    }
    scheduler.advance()
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    scheduler.advance()
  }

  @Test("on a real queue, subscription, requests and cancel run on that queue")
  func realQueue() async {
    let queue = DispatchQueue(label: "subscribe-on")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let log = Log<String>()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = QueueRecordingPublisher(upstream: subject, key: key, log: log)
      .subscribe(on: queue)
      .record(initialDemand: .max(1))
    queue.sync {}
    recorder.request(.max(2))
    recorder.cancel()
    queue.sync {}
    #expect(log.values == ["subscribe:true", "request:true", "request:true", "cancel:true"])
  }

  @Test("on a real queue, a synchronous upstream's values all arrive, then the completion")
  func realQueueValues() async {
    let queue = DispatchQueue(label: "subscribe-on-values")
    let recorder = (0..<50).publisher.subscribe(on: queue).record(initialDemand: .max(10))
    #expect(await recorder.values(count: 10) == Array(0..<10))
    recorder.request(.unlimited)
    #expect(await recorder.values(count: 50) == Array(0..<50))
    #expect(await recorder.completion == .finished)
  }

  @Test("stress: requests and cancels from many threads reach the upstream on the queue")
  func stressRequestsAndCancel() async {
    let offQueue = Log<String>()
    await concurrentPerform(4) { _ in
      for _ in 0..<50 {
        let queue = DispatchQueue(label: "subscribe-on-stress")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let log = Log<String>()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = QueueRecordingPublisher(upstream: subject, key: key, log: log)
          .subscribe(on: queue)
          .record(initialDemand: .none)
        queue.sync {}
        DispatchQueue.concurrentPerform(iterations: 4) { index in
          if index == 3 { recorder.cancel() } else { recorder.request(.max(1)) }
        }
        queue.sync {}
        for entry in log.values where entry.hasSuffix("false") { offQueue.append(entry) }
        if log.values.filter({ $0.hasPrefix("cancel") }).count != 1 { offQueue.append("cancels") }
      }
    }
    #expect(offQueue.values.isEmpty)
  }
}
