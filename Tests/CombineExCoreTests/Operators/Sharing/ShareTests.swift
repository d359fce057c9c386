import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("share()")
struct ShareTests {
  // MARK: Normal path

  @Test("subscribes to the upstream once for many subscribers")
  func subscribesOnce() {
    let log = UpstreamLog()
    let upstream = PassthroughSubject<Int, Never>()
    let shared: Publishers.Share<UpstreamProbe<PassthroughSubject<Int, Never>>> =
      upstream.probed(log).share()
    let first = shared.record()
    let second = shared.record()
    let third = shared.record()
    upstream.send(1)
    #expect(log.subscriptions == 1)
    #expect(log.requests == [.unlimited])
    #expect(first.values == [1])
    #expect(second.values == [1])
    #expect(third.values == [1])
  }

  @Test("the upstream's work runs once and every subscriber sees its result")
  func workRunsOnce() {
    var computations = 0
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.map { value -> Int in
      computations += 1
      return value * 10
    }
    .share()
    let first = shared.record()
    let second = shared.record()
    upstream.send(1)
    upstream.send(2)
    #expect(computations == 2)
    #expect(first.values == [10, 20])
    #expect(second.values == [10, 20])
  }

  @Test("a later subscriber receives the values sent after it attached")
  func lateSubscriberJoins() {
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share()
    let first = shared.record()
    upstream.send(1)
    let second = shared.record()
    upstream.send(2)
    #expect(first.values == [1, 2])
    #expect(second.values == [2])
  }

  @Test("a synchronous upstream delivers everything to the first subscriber")
  func synchronousUpstream() {
    let shared = [1, 2, 3].publisher.eraseToAnyPublisher().share()
    let first = shared.record()
    #expect(first.values == [1, 2, 3])
    #expect(first.receivedCompletion.isFinished)
  }

  @Test("Share is a class; two Shares are equal when they are the same instance")
  func identity() {
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share()
    let copy = shared
    #expect(shared == copy)
    #expect(shared != upstream.share())
    #expect(shared.upstream === upstream)
  }

  // MARK: Completion

  @Test(
    "after the upstream completes, late subscribers receive only the completion and the upstream is not subscribed again"
  )
  func lateSubscriberAfterCompletion() {
    let log = UpstreamLog()
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.probed(log).share()
    let early = shared.record()
    upstream.send(1)
    upstream.send(completion: .finished)
    let late = shared.record()
    #expect(early.values == [1])
    #expect(early.receivedCompletion.isFinished)
    #expect(late.values.isEmpty)
    #expect(late.receivedCompletion.isFinished)
    #expect(log.subscriptions == 1)
  }

  @Test("the upstream's failure reaches every subscriber, and late subscribers")
  func failure() {
    let upstream = PassthroughSubject<Int, TestError>()
    let shared = upstream.share()
    let first = shared.record()
    let second = shared.record()
    upstream.send(completion: .failure(TestError(1)))
    let late = shared.record()
    #expect(first.receivedCompletion?.failure == TestError(1))
    #expect(second.receivedCompletion?.failure == TestError(1))
    #expect(late.receivedCompletion?.failure == TestError(1))
  }

  // MARK: Disconnecting

  @Test("the last subscriber's cancel cancels the upstream subscription")
  func lastCancelDisconnects() {
    let log = UpstreamLog()
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.probed(log).share()
    let first = shared.record()
    let second = shared.record()
    first.cancel()
    #expect(log.cancels == 0)
    upstream.send(1)
    #expect(second.values == [1])
    second.cancel()
    #expect(log.cancels == 1)
  }

  @Test("a subscriber after everyone left subscribes to the upstream again, as in Combine")
  func resubscribesAfterDisconnect() {
    let log = UpstreamLog()
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.probed(log).share()
    shared.record().cancel()
    upstream.send(1)
    let again = shared.record()
    upstream.send(2)
    #expect(log.subscriptions == 2)
    #expect(again.values == [2])
  }

  // MARK: Demand

  @Test("a subscriber without demand misses values, as with a PassthroughSubject")
  func demand() {
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share()
    let slow = shared.record(initialDemand: .none)
    let fast = shared.record()
    upstream.send(1)
    slow.request(.max(1))
    upstream.send(2)
    upstream.send(3)
    #expect(slow.values == [2])
    #expect(fast.values == [1, 2, 3])
  }

  // MARK: Lifetime

  @Test("everything is freed after cancel")
  func freedAfterCancel() {
    weak var weakShare: Publishers.Share<PassthroughSubject<Int, Never>>?
    weak var weakOwner: TestOwner?
    let upstream = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let shared = upstream.share()
      weakShare = shared
      let owner = TestOwner()
      weakOwner = owner
      cancellable = shared.sink { owner.values.append($0) }
    }
    upstream.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
    #expect(weakShare == nil)
  }

  @Test("everything is freed after completion")
  func freedAfterCompletion() {
    weak var weakShare: Publishers.Share<PassthroughSubject<Int, Never>>?
    let upstream = PassthroughSubject<Int, Never>()
    let probe = LeakProbe<Int, Never>()
    do {
      let shared = upstream.share()
      weakShare = shared
      shared.subscribe(probe)
    }
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(probe.values == [1])
    #expect(probe.completion.isFinished)
    #expect(probe.subscriptionObject == nil)
    #expect(weakShare == nil)
  }

  // MARK: Re-entrancy

  @Test("a subscriber may subscribe again, or cancel, from inside receive")
  func reentrantSubscribeAndCancel() {
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share()
    var nested: TestSubscriber<Int, Never>?
    var cancellable: AnyCancellable?
    var received: [Int] = []
    cancellable = shared.sink { value in
      received.append(value)
      if value == 1 { nested = shared.record() }
      if value == 2 { cancellable?.cancel() }
    }
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    #expect(received == [1, 2])
    #expect(nested?.values == [2, 3])
  }

  // MARK: Stress

  @Test(
    "stress: eight threads subscribing while values are sent: one upstream subscription, serial delivery to each"
  )
  func stressSubscribers() async {
    let log = UpstreamLog()
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.probed(log).share()
    let keeper = shared.record()  // keeps the connection up throughout
    let subscribers = (0..<8).map { _ in OrderedStressSubscriber<Int, Never>() }
    await runOnThreads(8) { thread in
      shared.subscribe(subscribers[thread])
      for value in 0..<200 { upstream.send(thread * 1000 + value) }
    }
    upstream.send(completion: .finished)
    #expect(log.subscriptions == 1)
    #expect(keeper.values.count == 1600)
    for subscriber in subscribers {
      #expect(subscriber.overlaps == 0)
      #expect(subscriber.completions == 1)
      #expect(!subscriber.valueAfterCompletion)
      for thread in 0..<8 {
        #expect(isIncreasing(subscriber.values.filter { $0 / 1000 == thread }))
      }
    }
  }

  @Test(
    "stress: subscribing and cancelling from eight threads leaves every upstream subscription cancelled"
  )
  func stressSubscribeCancel() async {
    let log = UpstreamLog()
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.probed(log).share()
    await runOnThreads(8) { thread in
      for value in 0..<200 {
        let cancellable = shared.sink { _ in }
        upstream.send(value)
        cancellable.cancel()
      }
    }
    #expect(log.subscriptions >= 1)
    #expect(log.subscriptions == log.cancels)
  }
}
