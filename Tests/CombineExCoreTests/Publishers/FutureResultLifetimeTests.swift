import CombineExCore
import CombineExTesting
import Testing

/// A result whose lifetime the tests watch through a weak reference.
private final class Payload: Sendable {
  let id: Int
  init(_ id: Int) { self.id = id }
}

/// An error holding a ``Payload``, to watch a failure's lifetime.
private struct PayloadError: Error {
  let payload: Payload
}

/// A result larger than four words, which the future keeps boxed rather than in place.
private struct LargeResult: Sendable {
  let a: Int
  let b: Int
  let c: Int
  let d: Int
  let payload: Payload
}

/// A subscriber that lets go of its subscription at once and never asks for anything.
private final class ForgetfulSubscriber<Input, Failure: Error>: Subscriber {
  func receive(subscription: any Subscription) {}
  func receive(_ input: Input) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Failure>) {}
}

@Suite("Future's result: kept, delivered and released")
struct FutureResultLifetimeTests {
  @Test("the future releases its result when it is freed")
  func futureReleasesResult() {
    weak var weakPayload: Payload?
    do {
      let payload = Payload(1)
      weakPayload = payload
      let future = Future<Payload, Never> { $0(.success(payload)) }
      let recorder = future.record()
      #expect(recorder.values.map(\.id) == [1])
    }
    #expect(weakPayload == nil)
  }

  @Test("a subscription cancelled before delivery releases its copy of the result")
  func cancelReleasesWaitingResult() {
    weak var weakPayload: Payload?
    weak var weakFuture: Future<Payload, Never>?
    let recorder: TestSubscriber<Payload, Never>
    do {
      let payload = Payload(2)
      weakPayload = payload
      let future = Future<Payload, Never> { $0(.success(payload)) }
      weakFuture = future
      recorder = future.record(initialDemand: .none)
    }
    #expect(weakFuture == nil)
    #expect(weakPayload != nil)
    recorder.cancel()
    #expect(weakPayload == nil)
    #expect(recorder.values.isEmpty)
  }

  @Test("a subscription its subscriber let go of releases its copy of the result")
  func droppedSubscriptionReleasesResult() {
    weak var weakPayload: Payload?
    do {
      let payload = Payload(3)
      weakPayload = payload
      let future = Future<Payload, Never> { $0(.success(payload)) }
      future.subscribe(ForgetfulSubscriber<Payload, Never>())
    }
    #expect(weakPayload == nil)
  }

  @Test("a failure is delivered, then released with the future")
  func failureDeliveredAndReleased() {
    weak var weakPayload: Payload?
    do {
      let payload = Payload(4)
      weakPayload = payload
      let future = Future<Int, PayloadError> { $0(.failure(PayloadError(payload: payload))) }
      let recorder = future.record(initialDemand: .none)
      guard case .failure(let error) = recorder.receivedCompletion else {
        Issue.record("expected the failure, got \(String(describing: recorder.receivedCompletion))")
        return
      }
      #expect(error.payload.id == 4)
    }
    #expect(weakPayload == nil)
  }

  @Test("a result larger than four words is delivered to every subscriber, then released")
  func largeResultDeliveredAndReleased() {
    weak var weakPayload: Payload?
    do {
      let payload = Payload(5)
      weakPayload = payload
      let box = LockedPromise<LargeResult>()
      let future = Future<LargeResult, Never> { box.promise = $0 }
      let early = future.record()
      box.promise?(.success(LargeResult(a: 1, b: 2, c: 3, d: 4, payload: payload)))
      let late = future.record()
      let waiting = future.record(initialDemand: .none)
      for recorder in [early, late] {
        #expect(
          recorder.values.map { [$0.a, $0.b, $0.c, $0.d, $0.payload.id] } == [[1, 2, 3, 4, 5]])
        #expect(recorder.receivedCompletion?.isFinished == true)
      }
      waiting.cancel()
      box.promise = nil
    }
    #expect(weakPayload == nil)
  }

  @Test("a result fulfilled later reaches the waiting subscribers, then is released")
  func laterResultDeliveredAndReleased() {
    weak var weakPayload: Payload?
    do {
      let payload = Payload(6)
      weakPayload = payload
      let box = LockedPromise<Payload>()
      let future = Future<Payload, Never> { box.promise = $0 }
      let first = future.record()
      let second = future.record(initialDemand: .none)
      box.promise?(.success(payload))
      second.request(.max(1))
      #expect(first.values.map(\.id) == [6])
      #expect(second.values.map(\.id) == [6])
      box.promise = nil
    }
    #expect(weakPayload == nil)
  }
}

/// Keeps a future's promise so that a test can call it later.
private final class LockedPromise<Output>: @unchecked Sendable {
  // @unchecked Sendable: set and called on the test's thread only.
  var promise: Future<Output, Never>.Promise?
}
