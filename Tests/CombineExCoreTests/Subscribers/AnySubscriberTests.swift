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

  @Test("each closure-based subscriber has an identifier of its own")
  func closureIdentifiers() {
    let first = AnySubscriber<Int, Never>()
    let second = AnySubscriber<Int, Never>()
    #expect(first.combineIdentifier != second.combineIdentifier)
  }

  @Test("a closure-based subscriber shows \"Anonymous AnySubscriber\", and a mirror of that string")
  func closureReflection() {
    let subscriber = AnySubscriber<Int, Never>(receiveValue: { _ in .none })
    #expect(subscriber.description == "Anonymous AnySubscriber")
    #expect(subscriber.playgroundDescription as? String == "Anonymous AnySubscriber")
    #expect(ObjectIdentifier(subscriber.customMirror.subjectType) == ObjectIdentifier(String.self))
    #expect(subscriber.customMirror.children.isEmpty)
  }

  @Test("a wrapping subscriber shows the wrapped one's description, mirror and playground value")
  func wrappedReflection() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    let erased = AnySubscriber(sink)
    #expect(erased.description == "Sink")
    #expect(erased.playgroundDescription as? String == "Sink")
    #expect(
      ObjectIdentifier(erased.customMirror.subjectType)
        == ObjectIdentifier(Subscribers.Sink<Int, Never>.self))
    #expect(erased.customMirror.children.isEmpty)
  }

  @Test("a wrapped subscriber without a description or mirror shows its type, with no children")
  func plainWrappedReflection() {
    let erased = AnySubscriber(PlainSubscriber())
    #expect(erased.description == "PlainSubscriber")
    #expect(erased.playgroundDescription as? String == "PlainSubscriber")
    #expect(
      ObjectIdentifier(erased.customMirror.subjectType) == ObjectIdentifier(PlainSubscriber.self))
    #expect(erased.customMirror.children.isEmpty)
  }

  @Test("init from a subject is described as \"Subject\" and gives the subject one subscription")
  func fromSubjectTakesTheFirstSubscriptionOnly() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    let erased = AnySubscriber(subject)
    #expect(erased.description == "Subject")
    #expect(erased.playgroundDescription as? String == "Subject")
    let first = ManualUpstream<Int, Never>()
    let second = ManualUpstream<Int, Never>()
    first.subscribe(erased)
    second.subscribe(erased)
    #expect(first.requests == [.unlimited])
    #expect(second.requests.isEmpty)
    #expect(second.cancelCount == 1)
    #expect(erased.receive(1) == .none)
    erased.receive(completion: .finished)
    #expect(erased.receive(2) == .none)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("init from a subject shows Combine's mirror: the subject and the upstream subscription")
  func fromSubjectMirror() {
    let subject = PassthroughSubject<Int, Never>()
    let erased = AnySubscriber(subject)
    let before = Array(erased.customMirror.children)
    #expect(before.map(\.label) == ["downstreamSubject", "upstreamSubscription", "subject"])
    #expect(before[0].value as? PassthroughSubject<Int, Never> === subject)
    #expect(before[1].value as? (any Subscription) == nil)
    ManualUpstream<Int, Never>().subscribe(erased)
    #expect(erased.customMirror.children.map(\.value).dropFirst().first is any Subscription)
  }

  @Test(
    "init from a subject holds the subject weakly, as Combine does, and cancels once it is gone")
  func fromSubjectHoldsTheSubjectWeakly() {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    let erased: AnySubscriber<Int, Never>
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      erased = AnySubscriber(subject)
    }
    #expect(weakSubject == nil)
    let upstream = ManualUpstream<Int, Never>()
    upstream.subscribe(erased)
    #expect(upstream.cancelCount == 1)
    #expect(upstream.requests.isEmpty)
  }
}

/// A subscriber with no description or mirror of its own.
private struct PlainSubscriber: Subscriber {
  typealias Input = Int
  typealias Failure = Never
  let combineIdentifier = CombineIdentifier()
  func receive(subscription: any Subscription) {}
  func receive(_ input: Int) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Never>) {}
}
