import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("catch and tryCatch")
struct CatchTests {
  // MARK: catch

  @Test("without a failure, catch passes everything through and never calls the handler")
  func passesThrough() {
    var calls = 0
    let recorder = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
      .catch { _ -> Just<Int> in
        calls += 1
        return Just(0)
      }
      .record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(calls == 0)
  }

  @Test("on failure, catch continues with the handler's publisher")
  func switchesToHandlerPublisher() {
    let upstream = PassthroughSubject<Int, TestError>()
    var caught: [TestError] = []
    let recorder =
      upstream
      .catch { error -> Publishers.Sequence<[Int], Never> in
        caught.append(error)
        return [8, 9].publisher
      }
      .record()
    upstream.send(1)
    upstream.send(completion: .failure(TestError(4)))
    #expect(caught == [TestError(4)])
    #expect(recorder.values == [1, 8, 9])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the handler publisher's failure is delivered, not caught again")
  func replacementFailure() {
    var calls = 0
    let recorder = Fail<Int, TestError>(error: TestError(1))
      .catch { _ -> Fail<Int, TestError> in
        calls += 1
        return Fail(error: TestError(2))
      }
      .record()
    #expect(recorder.receivedCompletion?.failure == TestError(2))
    #expect(recorder.completionCount == 1)
    #expect(calls == 1)
  }

  @Test("outstanding demand carries over to the handler's publisher")
  func demandCarriesOver() {
    let upstream = ManualPublisher<Int, TestError>()
    let replacement = ManualPublisher<Int, Never>()
    let recorder = upstream.catch { _ in replacement }.record(initialDemand: .max(3))
    #expect(upstream.requested == .max(3))
    upstream.send(1)
    upstream.send(completion: .failure(TestError(0)))
    #expect(replacement.requested == .max(2))
    replacement.send(2)
    replacement.send(3)
    #expect(!replacement.send(4))
    recorder.request(.max(1))
    #expect(replacement.send(4))
    #expect(recorder.values == [1, 2, 3, 4])
  }

  @Test("no demand: nothing is requested from either publisher")
  func noDemand() {
    let upstream = ManualPublisher<Int, TestError>()
    let replacement = ManualPublisher<Int, Never>()
    _ = upstream.catch { _ in replacement }.record(initialDemand: .none)
    #expect(upstream.requested == .none)
    upstream.send(completion: .failure(TestError(0)))
    #expect(replacement.requested == .none)
  }

  @Test("cancel reaches the upstream, or the handler's publisher after a failure")
  func cancelReachesCurrent() {
    let upstream = ManualPublisher<Int, TestError>()
    let replacement = ManualPublisher<Int, Never>()
    let first = upstream.catch { _ in replacement }.record()
    first.cancel()
    #expect(upstream.isCancelled)
    let second = upstream.catch { _ in replacement }.record()
    upstream.send(completion: .failure(TestError(0)))
    second.cancel()
    #expect(replacement.isCancelled)
    #expect(!replacement.send(1))
    #expect(second.values.isEmpty)
    #expect(second.receivedCompletion == nil)
  }

  @Test("the pipeline is freed after completion and after cancel")
  func freed() {
    let upstream = PassthroughSubject<Int, TestError>()
    let replacement = PassthroughSubject<Int, Never>()
    let completed = LeakProbe<Int, Never>()
    let cancelled = LeakProbe<Int, Never>()
    upstream.catch { _ in replacement }.subscribe(completed)
    upstream.catch { _ in replacement }.subscribe(cancelled)
    upstream.send(completion: .failure(TestError(0)))
    cancelled.cancel()
    #expect(cancelled.subscriptionObject == nil)
    replacement.send(completion: .finished)
    #expect(completed.completion.isFinished)
    #expect(completed.subscriptionObject == nil)
  }

  @Test("cancelling from inside receive stops the handler's publisher")
  func reentrantCancel() {
    let replacement = ManualPublisher<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = Fail<Int, TestError>(error: TestError(0))
      .catch { _ in replacement }
      .sink { value in
        received.append(value)
        cancellable?.cancel()
      }
    replacement.send(1)
    #expect(!replacement.send(2))
    #expect(received == [1])
    #expect(replacement.isCancelled)
  }

  // MARK: tryCatch

  @Test("tryCatch continues with the handler's publisher")
  func tryCatchSwitches() {
    let recorder = Fail<Int, TestError>(error: TestError(1))
      .tryCatch { _ in Fail<Int, TestError>(error: TestError(2)) }
      .record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(2))
    let recovered = Fail<Int, TestError>(error: TestError(1))
      .tryCatch { _ in [1, 2].publisher }
      .record()
    #expect(recovered.values == [1, 2])
    #expect(recovered.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails tryCatch once")
  func tryCatchThrows() {
    let upstream = PassthroughSubject<Int, TestError>()
    let recorder =
      upstream
      .tryCatch { error -> Just<Int> in throw TestError(error.id + 10) }
      .record()
    upstream.send(1)
    upstream.send(completion: .failure(TestError(1)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(11))
    #expect(recorder.completionCount == 1)
  }

  @Test("without a failure, tryCatch finishes with the upstream")
  func tryCatchFinishes() {
    let recorder = Publishers.Sequence<[Int], TestError>(sequence: [1])
      .tryCatch { _ in Just(0) }
      .record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("tryCatch carries outstanding demand over and cancel reaches the handler's publisher")
  func tryCatchDemandAndCancel() {
    let replacement = ManualPublisher<Int, TestError>()
    let recorder = Fail<Int, TestError>(error: TestError(0))
      .tryCatch { _ in replacement }
      .record(initialDemand: .max(2))
    #expect(replacement.requested == .max(2))
    recorder.cancel()
    #expect(replacement.isCancelled)
  }

  // MARK: Stress

  @Test("stress: the switch to the handler's publisher under demand from six threads loses nothing")
  func stressSwitchUnderConcurrentDemand() async {
    let upstream = ManualPublisher<Int, TestError>()
    let replacement = ManualPublisher<Int, Never>()
    let subscriber = StressSubscriber<Int, Never>(initialDemand: .none)
    upstream.catch { _ in replacement }.subscribe(subscriber)
    await runOnThreads(8) { thread in
      switch thread {
      case 0:
        for value in 0..<300 { upstream.sendWhenDemanded(value) }
        upstream.send(completion: .failure(TestError(0)))
      case 1:
        while replacement.subscriptionCount == 0 { sched_yield() }
        for value in 300..<600 { replacement.sendWhenDemanded(value) }
        replacement.send(completion: .finished)
      default:
        for _ in 0..<100 { subscriber.request(.max(1)) }
      }
    }
    #expect(subscriber.values == Array(0..<600))
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
  }
}

// MARK: Combine's subscription timing and misuse checks

extension CatchTests {
  @Test("the subscriber receives its subscription when the upstream's arrives")
  func subscriptionWhenUpstreamsArrives() {
    let upstream = LateSubscriptionUpstream<Int, TestError>()
    let recorder = upstream.catch { _ in Just(0) }.record(initialDemand: .max(2))
    #expect(!recorder.isSubscribed)
    upstream.sendSubscription()
    #expect(recorder.isSubscribed)
    #expect(upstream.requests == [.max(2)])
  }

  @Test("a .finished before the upstream's subscription is ignored")
  func earlyFinishedIgnored() {
    let upstream = LateSubscriptionUpstream<Int, TestError>()
    let recorder = upstream.catch { _ in Just(0) }.record()
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    #expect(!recorder.isSubscribed)
  }

  @Test("an upstream value nobody asked for is an API violation")
  func unwantedValueTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ScriptedUpstream<Int, TestError>()
      let recorder = upstream.catch { _ in Just(0) }.record(initialDemand: .none)
      upstream.send(1)
      _ = recorder
    }
  }

  @Test("an upstream failure before its subscription is an API violation")
  func earlyFailureTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = LateSubscriptionUpstream<Int, TestError>()
      let recorder = upstream.tryCatch { _ in Just(0) }.record()
      upstream.send(completion: .failure(TestError(0)))
      _ = recorder
    }
  }

  @Test("a second upstream failure is an API violation")
  func secondFailureTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ScriptedUpstream<Int, TestError>()
      let replacement = ScriptedUpstream<Int, Never>()
      let recorder = upstream.catch { _ in replacement }.record()
      upstream.send(completion: .failure(TestError(0)))
      upstream.send(completion: .failure(TestError(1)))
      _ = recorder
    }
  }

  @Test("a value of the handler's publisher beyond the demand is ignored")
  func unwantedReplacementValueIgnored() {
    let upstream = ScriptedUpstream<Int, TestError>()
    let replacement = ScriptedUpstream<Int, Never>()
    let recorder = upstream.catch { _ in replacement }.record(initialDemand: .max(1))
    upstream.send(completion: .failure(TestError(0)))
    #expect(replacement.send(1) == .none)
    #expect(replacement.send(2) == .none)
    #expect(recorder.values == [1])
  }
}
