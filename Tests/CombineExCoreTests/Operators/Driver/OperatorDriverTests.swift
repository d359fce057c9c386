import CombineExCore
import CombineExTesting
import Testing

/// Combine's behaviour at the edges that the single-upstream operators share (their driver):
/// checked against OpenCombine's test suite in its Combine-compatibility mode
/// (`Tools/opencombine-suite.sh`).
@Suite("Single-upstream operators at the edges")
struct OperatorDriverTests {
  // MARK: Results wait for demand

  @Test("first() on an empty upstream sends .finished only once the subscriber has asked")
  func emptyFirstWaitsForDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.first().record(initialDemand: .none)
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("last() on an empty upstream sends .finished only once the subscriber has asked")
  func emptyLastWaitsForDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.last().record(initialDemand: .none)
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a cancel while the empty result waits for demand sends nothing")
  func cancelWhileEmptyResultWaits() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.max().record(initialDemand: .none)
    upstream.send(completion: .finished)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("a failure does not wait for demand")
  func failureDoesNotWait() {
    let upstream = ManualUpstream<Int, TestError>()
    let recorder = upstream.first().record(initialDemand: .none)
    upstream.send(completion: .failure(TestError(1)))
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  // MARK: Descriptions

  @Test("first(where:)'s subscription is described as \"TryFirst\", as in Combine")
  func firstWhereDescription() {
    var description: String?
    ManualUpstream<Int, Never>().first { $0 > 1 }
      .subscribe(AnySubscriber(receiveSubscription: { description = "\($0)" }))
    #expect(description == "TryFirst")
  }

  // MARK: Before the upstream's subscription

  @Test(
    "a cancel before the subscription cancels it when it comes (filtering operators)",
    arguments: FilteringOperator.allCases)
  func cancelBeforeSubscription(_ kind: FilteringOperator) throws {
    let upstream = LateSubscriptionUpstream<Int, Never>()
    var subscribed = false
    kind.apply(to: upstream)
      .subscribe(AnySubscriber(receiveSubscription: { _ in subscribed = true }))
    let driver = try #require(upstream.operatorAsSubscription)
    driver.cancel()
    upstream.sendSubscription()
    #expect(upstream.cancelCount == 1)
    #expect(upstream.requests.isEmpty)
    #expect(!subscribed)
  }

  @Test("other operators ignore a value and a completion that come before the subscription")
  func otherOperatorsIgnoreEarlyEvents() {
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let recorder = upstream.tryMap { $0 * 10 }.record()
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .finished)
    upstream.sendSubscription()
    #expect(upstream.requests == [.unlimited])
    upstream.send(2)
    #expect(recorder.values == [20])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("scan passes on a completion before the subscription and cancels the subscription")
  func scanEndsOnEarlyCompletion() {
    let upstream = LateSubscriptionUpstream<Int, TestError>()
    var events: [String] = []
    upstream.scan(0, +).subscribe(
      AnySubscriber(
        receiveSubscription: { _ in events.append("subscription") },
        receiveValue: {
          events.append("\($0)"); return .none
        },
        receiveCompletion: { events.append("\($0)") }))
    upstream.send(completion: .failure(TestError(1)))
    upstream.sendSubscription()
    upstream.send(5)
    #expect(events == ["\(Subscribers.Completion<TestError>.failure(TestError(1)))"])
    #expect(upstream.cancelCount == 1)
  }

  @Test("dropFirst's subscriber, which has its subscription already, gets the early completion")
  func dropFirstEndsOnEarlyCompletion() {
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let recorder = upstream.dropFirst().record()
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a value before the subscription stops the program (prefix(while:), as in Combine)")
  func valueBeforeSubscriptionTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = LateSubscriptionUpstream<Int, Never>()
      let recorder = upstream.prefix { _ in true }.record()
      upstream.send(1)
      _ = recorder
    }
  }

  @Test("a completion before the subscription stops the program (removeDuplicates())")
  func completionBeforeSubscriptionTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = LateSubscriptionUpstream<Int, Never>()
      let recorder = upstream.removeDuplicates().record()
      upstream.send(completion: .finished)
      _ = recorder
    }
  }

  @Test("a request before the subscription stops the program (tryFilter)")
  func requestBeforeSubscriptionTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = LateSubscriptionUpstream<Int, Never>()
      let recorder = upstream.tryFilter { _ in true }.record()
      upstream.operatorAsSubscription?.request(.max(1))
      _ = recorder
    }
  }

  // MARK: Requests of zero

  @Test("a request of zero stops the program (dropFirst(), as in Combine)")
  func zeroRequestDropFirst() async {
    await #expect(processExitsWith: .failure) {
      PassthroughSubject<Int, Never>().dropFirst().record(initialDemand: .none).request(.none)
    }
  }

  @Test("a request of zero stops the program (drop(while:))")
  func zeroRequestDropWhile() async {
    await #expect(processExitsWith: .failure) {
      PassthroughSubject<Int, Never>().drop { _ in true }.record(initialDemand: .none)
        .request(.none)
    }
  }

  @Test("a request of zero stops the program (collect(_:))")
  func zeroRequestCollect() async {
    await #expect(processExitsWith: .failure) {
      PassthroughSubject<Int, Never>().collect(2).record(initialDemand: .none).request(.none)
    }
  }

  @Test("a request of zero stops the program (replaceEmpty(with:))")
  func zeroRequestReplaceEmpty() async {
    await #expect(processExitsWith: .failure) {
      PassthroughSubject<Int, Never>().replaceEmpty(with: 0).record(initialDemand: .none)
        .request(.none)
    }
  }

  @Test("other operators pass a request of zero on (handleEvents)")
  func zeroRequestPassedOn() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.handleEvents().record(initialDemand: .none)
    recorder.request(.none)
    #expect(upstream.requests == [.none])
  }

  // MARK: Re-entry (the rule in OperatorLogic's header)

  @Test(
    "a value sent into the upstream from inside the logic's closure runs nested, on the state as it is then, and the outer call overwrites it"
  )
  func nestedReceiveFromTheLogic() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.scan(0) { total, value in
      if value == 1 { subject.send(10) }
      return total + value
    }
    .sink { received.append($0) }
    subject.send(1)
    subject.send(2)
    // The nested call saw 0 and published 10; the outer one then published 0 + 1, and the
    // state went on from there.
    #expect(received == [10, 1, 3])
    withExtendedLifetime(cancellable) {}
  }

  @Test(
    "a value sent into the upstream from inside the downstream's receive runs nested, after the logic's step"
  )
  func nestedReceiveFromTheDownstream() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.scan(0, +).sink { total in
      received.append(total)
      if total == 1 { subject.send(10) }
    }
    subject.send(1)
    subject.send(2)
    #expect(received == [1, 11, 13])
    withExtendedLifetime(cancellable) {}
  }
}

/// The operators for which Combine stops the program on events before the upstream's
/// subscription, and which end at a cancel that comes before it.
enum FilteringOperator: CaseIterable, Sendable, CustomTestStringConvertible {
  case prefixWhile, tryPrefixWhile, removeDuplicates, tryRemoveDuplicates, tryFilter
  case tryCompactMap

  var testDescription: String { "\(self)" }

  func apply(to upstream: LateSubscriptionUpstream<Int, Never>) -> AnyPublisher<Int, any Error> {
    switch self {
    case .prefixWhile:
      upstream.prefix { _ in true }.setFailureType(to: (any Error).self).eraseToAnyPublisher()
    case .tryPrefixWhile: upstream.tryPrefix { _ in true }.eraseToAnyPublisher()
    case .removeDuplicates:
      upstream.removeDuplicates().setFailureType(to: (any Error).self).eraseToAnyPublisher()
    case .tryRemoveDuplicates: upstream.tryRemoveDuplicates { $0 == $1 }.eraseToAnyPublisher()
    case .tryFilter: upstream.tryFilter { _ in true }.eraseToAnyPublisher()
    case .tryCompactMap: upstream.tryCompactMap { $0 }.eraseToAnyPublisher()
    }
  }
}
