import CombineExCore
import CombineExTesting
import Testing

@Suite("AnySubscriber")
struct AnySubscriberTests {
  @Test("the closure initializer forwards the subscription, values and completion")
  func closuresReceiveEverything() {
    let upstream = ManualUpstream<Int, TestError>()
    var events: [String] = []
    let subscriber = AnySubscriber<Int, TestError>(
      receiveSubscription: { subscription in
        events.append("subscription")
        subscription.request(.max(2))
      },
      receiveValue: { value in
        events.append("value \(value)")
        return value == 1 ? .max(3) : .none
      },
      receiveCompletion: { completion in events.append("\(completion)") })
    upstream.subscribe(subscriber)
    #expect(upstream.requests == [.max(2)])
    #expect(upstream.send(1) == .max(3))
    #expect(upstream.send(2) == .none)
    upstream.send(completion: .failure(TestError(4)))
    #expect(events == ["subscription", "value 1", "value 2", "failure(TestError(4))"])
  }

  @Test("demand requested from the closures limits what a real publisher delivers")
  func closuresControlDemand() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.request(.max(1)) },
      receiveValue: { value in
        received.append(value)
        return value == 1 ? .max(1) : .none
      })
    subject.subscribe(subscriber)
    for value in 1...4 { subject.send(value) }
    #expect(received == [1, 2])
  }

  @Test("closures left out do nothing, and a missing receiveValue asks for no more")
  func missingClosures() {
    let upstream = ManualUpstream<Int, Never>()
    let subscriber = AnySubscriber<Int, Never>()
    upstream.subscribe(subscriber)
    #expect(upstream.requests.isEmpty)
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .finished)
  }

  @Test("init from a subject forwards values and the completion to the subject")
  func fromSubject() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.record()
    let upstream = PassthroughSubject<Int, TestError>()
    upstream.subscribe(AnySubscriber(subject))
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .failure(TestError(3)))
    upstream.send(4)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
  }

  @Test("init from a subject hands the subscription to the subject, which requests unlimited")
  func fromSubjectRequestsUnlimited() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let upstream = ManualUpstream<Int, Never>()
    let subscriber = AnySubscriber(subject)
    upstream.subscribe(subscriber)
    #expect(upstream.requests == [.unlimited])
    #expect(upstream.send(5) == .none)
    #expect(subject.value == 5)
    upstream.send(completion: .finished)
    let recorder = subject.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("wrapping a subscriber forwards everything, demand included")
  func wrapsSubscriber() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(
      initialDemand: .max(2), demandAfterEachValue: .max(1))
    upstream.subscribe(AnySubscriber(recorder))
    #expect(upstream.requests == [.max(2)])
    #expect(upstream.send(7) == .max(1))
    upstream.send(completion: .finished)
    #expect(recorder.values == [7])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("wrapping a subscriber keeps its combineIdentifier and its description")
  func wrapsIdentifier() {
    let recorder = TestSubscriber<Int, Never>()
    let erased = AnySubscriber(recorder)
    #expect(erased.combineIdentifier == recorder.combineIdentifier)
    #expect(erased.combineIdentifier == CombineIdentifier(recorder))
    #expect(erased.description == recorder.description)
  }

  @Test("wrapping an AnySubscriber again keeps the same identifier")
  func wrapsAnySubscriber() {
    let recorder = TestSubscriber<Int, Never>()
    let erased = AnySubscriber(recorder)
    let twice = AnySubscriber(erased)
    #expect(twice.combineIdentifier == recorder.combineIdentifier)
    let closures = AnySubscriber<Int, Never>()
    #expect(AnySubscriber(closures).combineIdentifier == closures.combineIdentifier)
  }

  @Test("each closure-based subscriber has an identifier of its own, and is named AnySubscriber")
  func closureIdentifiers() {
    let first = AnySubscriber<Int, Never>()
    let second = AnySubscriber<Int, Never>()
    #expect(first.combineIdentifier != second.combineIdentifier)
    #expect(first.description == "AnySubscriber")
  }
}
