import CombineExCore
import CombineExTesting
import Testing

/// A subject that records what it is sent and requests a chosen demand from its upstream.
private final class SpySubject: Subject, @unchecked Sendable {
  typealias Output = Int
  typealias Failure = TestError

  let demand: Subscribers.Demand
  var subscriptions: [any Subscription] = []
  var values: [Int] = []
  var completions: [Subscribers.Completion<TestError>] = []

  init(demand: Subscribers.Demand) { self.demand = demand }

  func send(_ value: Int) { values.append(value) }
  func send(completion: Subscribers.Completion<TestError>) { completions.append(completion) }
  func send(subscription: any Subscription) {
    subscriptions.append(subscription)
    subscription.request(demand)
  }
  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {}
}

@Suite("subscribe(subject)")
struct SubscribeSubjectTests {
  @Test("the subject receives every value and the completion")
  func forwardsValuesAndCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    let connection = [1, 2, 3].publisher.subscribe(subject)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
    _ = connection
  }

  @Test("the subject receives the failure")
  func forwardsFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.record()
    let connection = Fail<Int, TestError>(error: TestError(1)).subscribe(subject)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
    _ = connection
  }

  @Test("the subscription goes to send(subscription:), and the subject's demand governs")
  func subjectReceivesSubscription() {
    let spy = SpySubject(demand: .max(2))
    let connection = Record<Int, TestError>(output: [1, 2, 3], completion: .finished)
      .subscribe(spy)
    #expect(spy.subscriptions.count == 1)
    #expect(spy.values == [1, 2])
    #expect(spy.completions.isEmpty)
    spy.subscriptions.first?.request(.max(1))
    #expect(spy.values == [1, 2, 3])
    #expect(spy.completions == [.finished])
    _ = connection
  }

  @Test("a CurrentValueSubject takes the upstream's values as its value")
  func currentValueSubject() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let connection = [1, 2].publisher.subscribe(subject)
    #expect(subject.value == 2)
    _ = connection
  }

  @Test("cancelling the returned AnyCancellable cancels the upstream")
  func cancelReachesUpstream() {
    let upstream = PassthroughSubject<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    var cancelled = false
    let connection = upstream.handleCancelForTest { cancelled = true }.subscribe(subject)
    upstream.send(1)
    connection.cancel()
    upstream.send(2)
    #expect(cancelled)
    #expect(recorder.values == [1])
  }

  @Test("deinitializing the subject cancels the upstream")
  func subjectDeinitCancelsUpstream() {
    let upstream = PassthroughSubject<Int, Never>()
    var cancelled = false
    var connection: AnyCancellable?
    do {
      let subject = PassthroughSubject<Int, Never>()
      connection = upstream.handleCancelForTest { cancelled = true }.subscribe(subject)
    }
    #expect(cancelled)
    _ = connection
  }

  @Test("the connection does not keep the subject alive")
  func connectionDoesNotRetainSubject() {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    let upstream = PassthroughSubject<Int, Never>()
    var connection: AnyCancellable?
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      connection = upstream.subscribe(subject)
    }
    #expect(weakSubject == nil)
    upstream.send(1)
    _ = connection
  }
}
