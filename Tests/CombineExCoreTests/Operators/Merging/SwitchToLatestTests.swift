import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("switchToLatest")
struct SwitchToLatestTests {
  // MARK: Normal path

  @Test("republishes the values of the latest inner publisher only")
  func republishesLatest() {
    let upstream = PassthroughSubject<PassthroughSubject<String, Never>, Never>()
    let first = PassthroughSubject<String, Never>()
    let second = PassthroughSubject<String, Never>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(first)
    first.send("a")
    upstream.send(second)
    first.send("ignored")
    second.send("b")
    #expect(recorder.values == ["a", "b"])
  }

  @Test("a new inner publisher cancels the previous one before it is subscribed")
  func newInnerCancelsPrevious() {
    let upstream = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
    let first = ManualPublisher<Int, Never>()
    var log: [String] = []
    let recorder = upstream.switchToLatest().record()
    upstream.send(first.handleCancelForTest { log.append("cancel first") }.eraseToAnyPublisher())
    upstream.send(
      Empty<Int, Never>(completeImmediately: false)
        .handleCancelForTest { log.append("cancel second") }
        .eraseToAnyPublisher())
    #expect(first.isCancelled)
    #expect(log == ["cancel first"])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("finishes when the upstream finished and then the current inner finishes")
  func finishesAfterUpstreamThenInner() {
    let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let inner = PassthroughSubject<Int, Never>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(inner)
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    inner.send(1)
    inner.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("finishes when the inner finished and then the upstream finishes")
  func finishesAfterInnerThenUpstream() {
    let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let inner = PassthroughSubject<Int, Never>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(inner)
    inner.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
  }

  @Test("an upstream that finishes without sending finishes at once")
  func emptyUpstream() {
    let recorder = Empty<Just<Int>, Never>().switchToLatest().record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("synchronous inner publishers are each republished in full")
  func synchronousInners() {
    let recorder = [[1, 2], [3]].publisher.map(\.publisher).switchToLatest().record()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Demand

  @Test("the upstream is asked for every publisher")
  func upstreamDemandIsUnlimited() {
    let upstream = ManualPublisher<Just<Int>, Never>()
    _ = upstream.switchToLatest().record(initialDemand: .max(1))
    #expect(upstream.requested == .unlimited)
  }

  @Test("a new inner publisher inherits the outstanding demand")
  func demandCarriesOver() {
    let upstream = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = upstream.switchToLatest().record(initialDemand: .max(3))
    upstream.send(first)
    #expect(first.requested == .max(3))
    first.send(1)
    upstream.send(second)
    #expect(first.isCancelled)
    #expect(second.requested == .max(2))
    second.send(2)
    second.send(3)
    #expect(!second.send(4))
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("no demand: the inner publisher is asked for nothing until the downstream requests")
  func noDemand() {
    let upstream = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
    let inner = ManualPublisher<Int, Never>()
    let recorder = upstream.switchToLatest().record(initialDemand: .none)
    upstream.send(inner)
    #expect(inner.requested == .none)
    recorder.request(.max(1))
    #expect(inner.requested == .max(1))
  }

  @Test("a replaced inner publisher whose subscription arrives late is cancelled at once")
  func lateSubscriptionOfReplacedInner() {
    let upstream = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
    let late = LateSubscriptionPublisher<Int, Never>()
    let current = ManualPublisher<Int, Never>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(late.eraseToAnyPublisher())
    upstream.send(current.eraseToAnyPublisher())
    late.deliverSubscription()
    #expect(late.subscription?.isCancelled == true)
    #expect(current.requested == .unlimited)
    current.send(1)
    #expect(recorder.values == [1])
  }

  // MARK: Failure

  @Test("an inner failure is delivered once and cancels the upstream")
  func innerFailureCancelsUpstream() {
    let upstream = PassthroughSubject<PassthroughSubject<Int, TestError>, TestError>()
    let inner = PassthroughSubject<Int, TestError>()
    var upstreamCancelled = false
    let recorder = upstream.handleCancelForTest { upstreamCancelled = true }
      .switchToLatest()
      .record()
    upstream.send(inner)
    inner.send(completion: .failure(TestError(1)))
    upstream.send(completion: .failure(TestError(2)))
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(recorder.completionCount == 1)
    #expect(upstreamCancelled)
  }

  @Test("an upstream failure is delivered once and cancels the current inner publisher")
  func upstreamFailureCancelsInner() {
    let upstream = PassthroughSubject<ManualPublisher<Int, TestError>, TestError>()
    let inner = ManualPublisher<Int, TestError>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(inner)
    upstream.send(completion: .failure(TestError(3)))
    #expect(inner.isCancelled)
    #expect(recorder.receivedCompletion?.failure == TestError(3))
  }

  @Test("a failure of a replaced inner publisher is ignored")
  func replacedInnerFailureIgnored() {
    let upstream = PassthroughSubject<ManualPublisher<Int, TestError>, TestError>()
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, TestError>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(first)
    upstream.send(second)
    first.latest?.send(completion: .failure(TestError(1)))  // cancelled: sends nothing
    #expect(recorder.receivedCompletion == nil)
    second.send(5)
    #expect(recorder.values == [5])
  }

  // MARK: Failure-type overloads

  @Test("a never-failing upstream of failing publishers fails with the inner failure")
  func neverFailingUpstream() {
    let upstream = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
    let inner = PassthroughSubject<Int, TestError>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(inner)
    inner.send(1)
    inner.send(completion: .failure(TestError(5)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(5))
  }

  @Test("a failing upstream of never-failing publishers keeps its failure")
  func neverFailingInners() {
    let upstream = PassthroughSubject<Just<Int>, TestError>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(Just(1))
    upstream.send(completion: .failure(TestError(6)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(6))
  }

  @Test("never-failing on both sides gives a plain SwitchToLatest")
  func neverOnBothSides() {
    let switched: Publishers.SwitchToLatest<Just<Int>, Publishers.Sequence<[Just<Int>], Never>> =
      [Just(1), Just(2)].publisher.switchToLatest()
    #expect(switched.record().values == [1, 2])
  }

  // MARK: Cancel

  @Test("cancel reaches the upstream and the current inner publisher; nothing follows it")
  func cancelReachesBoth() {
    let upstream = ManualPublisher<ManualPublisher<Int, Never>, Never>()
    let inner = ManualPublisher<Int, Never>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(inner)
    inner.send(1)
    recorder.cancel()
    #expect(!inner.send(2))
    #expect(upstream.isCancelled)
    #expect(inner.isCancelled)
    #expect(recorder.values == [1])
  }

  @Test("the pipeline is freed after completion and after cancel")
  func freed() {
    let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let inner = PassthroughSubject<Int, Never>()
    let completed = LeakProbe<Int, Never>()
    let cancelled = LeakProbe<Int, Never>()
    upstream.switchToLatest().subscribe(completed)
    upstream.switchToLatest().subscribe(cancelled)
    upstream.send(inner)
    cancelled.cancel()
    #expect(cancelled.subscriptionObject == nil)
    upstream.send(completion: .finished)
    inner.send(completion: .finished)
    #expect(completed.completion.isFinished)
    #expect(completed.subscriptionObject == nil)
  }

  // MARK: Re-entrancy

  @Test("switching from inside receive cancels the current inner publisher")
  func reentrantSwitch() {
    let upstream = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    var received: [Int] = []
    let cancellable = upstream.switchToLatest().sink { value in
      received.append(value)
      if value == 1 { upstream.send(second) }
    }
    upstream.send(first)
    first.send(1)
    #expect(first.isCancelled)
    #expect(!first.send(2))
    second.send(3)
    #expect(received == [1, 3])
    withExtendedLifetime(cancellable) {}
  }

  @Test("cancelling from inside receive cancels the upstream and the inner publisher")
  func reentrantCancel() {
    let upstream = ManualPublisher<ManualPublisher<Int, Never>, Never>()
    let inner = ManualPublisher<Int, Never>()
    var cancellable: AnyCancellable?
    cancellable = upstream.switchToLatest().sink { _ in cancellable?.cancel() }
    upstream.send(inner)
    inner.send(1)
    #expect(upstream.isCancelled)
    #expect(inner.isCancelled)
  }

  // MARK: Stress

  @Test(
    "stress: switching while inner publishers send from seven threads delivers serially and completes once"
  )
  func stressSwitching() async {
    let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let inners = (0..<7).map { _ in PassthroughSubject<Int, Never>() }
    let subscriber = StressSubscriber<Int, Never>()
    upstream.switchToLatest().subscribe(subscriber)
    await concurrentPerform(8) { thread in
      if thread == 7 {
        for round in 0..<200 { upstream.send(inners[round % 7]) }
        return
      }
      for value in 0..<500 { inners[thread].send(thread * 10_000 + value) }
    }
    upstream.send(completion: .finished)
    for inner in inners { inner.send(completion: .finished) }
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    for thread in 0..<7 {
      #expect(isIncreasing(subscriber.values.filter { $0 / 10_000 == thread }))
    }
  }
}

// MARK: Combine's demand and misuse checks

extension SwitchToLatestTests {
  @Test("the demand the subscriber returns for a value goes back through the inner's receive")
  func returnedDemandGoesThroughInner() {
    let upstream = PassthroughSubject<ScriptedUpstream<Int, Never>, Never>()
    let inner = ScriptedUpstream<Int, Never>()
    let subscriber = CallbackSubscriber<Int, Never>(initialDemand: .max(1)) { _, _ in .max(5) }
    upstream.switchToLatest().subscribe(subscriber)
    upstream.send(inner)
    #expect(inner.requests == [.max(1)])
    #expect(inner.send(1) == .max(5))
    #expect(inner.requests == [.max(1)])  // returned, not requested
    let next = ScriptedUpstream<Int, Never>()
    upstream.send(next)
    #expect(next.requests == [.max(5)])  // the outstanding demand
    subscriber.request(.max(2))
    #expect(next.requests == [.max(5), .max(2)])
  }

  @Test("a request of zero is an API violation")
  func zeroRequestTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = PassthroughSubject<Just<Int>, Never>()
      let recorder = upstream.switchToLatest().record(initialDemand: .none)
      recorder.request(.none)
    }
  }

  @Test("an inner value beyond the demand is an API violation")
  func unwantedInnerValueTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = PassthroughSubject<ScriptedUpstream<Int, Never>, Never>()
      let inner = ScriptedUpstream<Int, Never>()
      let recorder = upstream.switchToLatest().record(initialDemand: .none)
      upstream.send(inner)
      inner.send(1)
      _ = recorder
    }
  }

  @Test("an inner value within the demand before the inner's subscription is delivered")
  func earlyInnerValueWithDemand() {
    let upstream = PassthroughSubject<LateSubscriptionUpstream<Int, Never>, Never>()
    let inner = LateSubscriptionUpstream<Int, Never>()
    let recorder = upstream.switchToLatest().record()
    upstream.send(inner)
    inner.send(1)
    #expect(recorder.values == [1])
  }

  @Test("an inner completion before the inner's subscription is an API violation")
  func earlyInnerCompletionTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = PassthroughSubject<LateSubscriptionUpstream<Int, Never>, Never>()
      let inner = LateSubscriptionUpstream<Int, Never>()
      let recorder = upstream.switchToLatest().record()
      upstream.send(inner)
      inner.send(completion: .finished)
      _ = recorder
    }
  }

  // MARK: Reflection

  @Test("the upstream's subscriber is the subscriber's subscription, SwitchToLatest, as in Combine")
  func subscriptionReflection() throws {
    let upstream = AttachedSubscriberUpstream<AttachedSubscriberUpstream<Int, Never>, Never>()
    let keeper = SubscriptionKeeper<Int, Never>()
    upstream.switchToLatest().subscribe(keeper)
    let attached = try #require(upstream.attached)
    let subscription = try #require(keeper.subscription)
    let isSameObject = (attached as AnyObject) === (subscription as AnyObject)
    #expect(isSameObject)
    let view = DebuggerView(subscription)
    #expect(view.description == "SwitchToLatest")
    #expect(view.playgroundDescription == "SwitchToLatest")
    #expect(view.labels == [])
  }

  @Test("an inner publisher's subscriber shows SwitchToLatest and names its parent subscription")
  func innerSubscriberReflection() throws {
    let upstream = AttachedSubscriberUpstream<AttachedSubscriberUpstream<Int, Never>, Never>()
    let inner = AttachedSubscriberUpstream<Int, Never>()
    let keeper = SubscriptionKeeper<Int, Never>()
    upstream.switchToLatest().subscribe(keeper)
    upstream.send(subscription: NamedTestSubscription())
    upstream.send(inner)
    let innerSubscriber = try #require(inner.attached)
    #expect(!(innerSubscriber is any Subscription))
    let view = DebuggerView(innerSubscriber)
    #expect(view.description == "SwitchToLatest")
    #expect(view.playgroundDescription == "SwitchToLatest")
    #expect(view.labels == ["parentSubscription"])
    let parent = view.child("parentSubscription") as? CombineIdentifier
    #expect(parent == (try #require(keeper.subscription)).combineIdentifier)
  }
}
