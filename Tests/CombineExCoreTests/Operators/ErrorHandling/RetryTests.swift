import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("retry")
struct RetryTests {
  @Test("without a failure, retry passes everything through once")
  func passesThrough() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = upstream.retry(3).record()
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(upstream.subscriptionCount == 1)
  }

  @Test("resubscribes up to n times, then delivers the last failure")
  func retriesThenFails() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = upstream.retry(2).record()
    for attempt in 0..<3 {
      #expect(upstream.subscriptionCount == attempt + 1)
      upstream.send(attempt)
      upstream.send(completion: .failure(TestError(attempt)))
    }
    #expect(upstream.subscriptionCount == 3)
    #expect(recorder.values == [0, 1, 2])
    #expect(recorder.receivedCompletion?.failure == TestError(2))
    #expect(recorder.completionCount == 1)
  }

  @Test("a later attempt that succeeds finishes the publisher")
  func laterAttemptSucceeds() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = upstream.retry(5).record()
    upstream.send(completion: .failure(TestError(0)))
    upstream.send(7)
    upstream.send(completion: .finished)
    #expect(upstream.subscriptionCount == 2)
    #expect(recorder.values == [7])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("retry(0) never resubscribes")
  func retryZero() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = upstream.retry(0).record()
    upstream.send(completion: .failure(TestError(1)))
    #expect(upstream.subscriptionCount == 1)
    #expect(recorder.receivedCompletion?.failure == TestError(1))
  }

  @Test("Retry(retries: nil) retries without limit")
  func unlimited() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = Publishers.Retry(upstream: upstream, retries: nil).record()
    for attempt in 0..<50 { upstream.send(completion: .failure(TestError(attempt))) }
    #expect(upstream.subscriptionCount == 51)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("a synchronously failing upstream is retried in a loop, not by recursion")
  func synchronousFailuresDoNotRecurse() {
    let recorder = Fail<Int, TestError>(error: TestError(1)).retry(100_000).record()
    #expect(recorder.receivedCompletion?.failure == TestError(1))
  }

  @Test("outstanding demand carries over to the next attempt")
  func demandCarriesOver() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = upstream.retry(1).record(initialDemand: .max(3))
    #expect(upstream.requested == .max(3))
    upstream.send(1)
    upstream.send(completion: .failure(TestError(0)))
    #expect(upstream.requested == .max(2))
    upstream.send(2)
    upstream.send(3)
    #expect(!upstream.send(4))
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("no demand: the new attempt is asked for nothing")
  func noDemand() {
    let upstream = ManualPublisher<Int, TestError>()
    _ = upstream.retry(1).record(initialDemand: .none)
    upstream.send(completion: .failure(TestError(0)))
    #expect(upstream.subscriptionCount == 2)
    #expect(upstream.requested == .none)
  }

  @Test("Retry keeps its upstream and retries, and is Equatable when its upstream is")
  func properties() {
    // Built directly: `Just.retry` is fused into a `Just`, as in Combine.
    let retry = Publishers.Retry(upstream: Just(1), retries: 3)
    #expect(retry.retries == 3)
    #expect(retry.upstream == Just(1))
    #expect(retry == Publishers.Retry(upstream: Just(1), retries: 3))
    #expect(retry != Publishers.Retry(upstream: Just(1), retries: 2))
  }

  @Test("cancel reaches the current attempt and stops retrying")
  func cancel() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = upstream.retry(3).record()
    upstream.send(completion: .failure(TestError(0)))
    recorder.cancel()
    #expect(upstream.isCancelled)
    upstream.latest?.send(completion: .failure(TestError(1)))
    #expect(upstream.subscriptionCount == 2)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("the pipeline is freed after completion and after cancel")
  func freed() {
    let upstream = PassthroughSubject<Int, TestError>()
    let completed = LeakProbe<Int, TestError>()
    let cancelled = LeakProbe<Int, TestError>()
    upstream.retry(1).subscribe(completed)
    upstream.retry(1).subscribe(cancelled)
    cancelled.cancel()
    #expect(cancelled.subscriptionObject == nil)
    upstream.send(completion: .finished)
    #expect(completed.completion.isFinished)
    #expect(completed.subscriptionObject == nil)
  }

  @Test("cancelling from inside receive stops the current attempt")
  func reentrantCancel() {
    let upstream = ManualPublisher<Int, TestError>()
    var cancellable: AnyCancellable?
    var received: [Int] = []
    cancellable = upstream.retry(3).sink(
      receiveCompletion: { _ in },
      receiveValue: { value in
        received.append(value)
        cancellable?.cancel()
      })
    upstream.send(1)
    #expect(!upstream.send(2))
    #expect(received == [1])
    #expect(upstream.isCancelled)
  }

  @Test("stress: failures and demand from several threads retry without loss and complete once")
  func stressRetries() async {
    let upstream = ManualPublisher<Int, TestError>()
    let subscriber = StressSubscriber<Int, TestError>(initialDemand: .none)
    upstream.retry(3).subscribe(subscriber)
    await runOnThreads(8) { thread in
      switch thread {
      case 0:
        for attempt in 0..<4 {
          while upstream.subscriptionCount < attempt + 1 { sched_yield() }
          for value in 0..<150 { upstream.sendWhenDemanded(attempt * 150 + value) }
          upstream.send(completion: attempt < 3 ? .failure(TestError(attempt)) : .finished)
        }
      default:
        for _ in 0..<100 { subscriber.request(.max(1)) }
      }
    }
    #expect(subscriber.values == Array(0..<600))
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
  }
}

// MARK: Combine's subscription timing, demand and misuse checks

extension RetryTests {
  @Test("the subscriber receives its subscription when the upstream's first arrives")
  func subscriptionWhenUpstreamsArrives() {
    let upstream = LateSubscriptionUpstream<Int, TestError>()
    let recorder = upstream.retry(1).record(initialDemand: .max(3))
    #expect(!recorder.isSubscribed)
    upstream.sendSubscription()
    #expect(recorder.isSubscribed)
    #expect(upstream.requests == [.max(3)])
  }

  @Test("the demand a value returns is requested from the upstream, not returned")
  func returnedDemandIsRequested() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let subscriber = CallbackSubscriber<Int, TestError>(initialDemand: .max(1)) { _, _ in .max(2) }
    upstream.retry(1).subscribe(subscriber)
    #expect(upstream.send(1) == .none)
    #expect(upstream.requests == [.max(1), .max(2)])
  }

  @Test("a negative count retries without limit")
  func negativeRetriesForever() {
    var attempts = 0
    let recorder = Deferred { () -> AnyPublisher<Int, TestError> in
      attempts += 1
      return attempts < 5
        ? Fail(error: TestError(attempts)).eraseToAnyPublisher()
        : Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
    }
    .retry(-1)
    .record()
    #expect(recorder.values == [5])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a completion before the upstream's subscription counts")
  func earlyCompletionCounts() {
    let upstream = LateSubscriptionUpstream<Int, TestError>()
    let recorder = upstream.retry(1).record()
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an upstream value nobody asked for is an API violation")
  func unwantedValueTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ScriptedUpstream<Int, TestError>()
      let recorder = upstream.retry(1).record(initialDemand: .none)
      upstream.send(1)
      _ = recorder
    }
  }
}
