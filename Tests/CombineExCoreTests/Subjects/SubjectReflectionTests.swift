import CombineExCore
import Foundation
import Testing

/// A subscriber that keeps its subscription and requests nothing by itself; `onValue` runs
/// inside each delivery.
private final class Keeper<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: `subscription` is set once, by the subject, before any sharing;
  // `onValue` is set before values are sent.
  var subscription: (any Subscription)?
  var onValue: ((Input) -> Void)?

  func receive(subscription: any Subscription) { self.subscription = subscription }

  func receive(_ input: Input) -> Subscribers.Demand {
    onValue?(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {}
}

/// A class with a `@Published` property.
private final class Gauge: @unchecked Sendable {
  @Published var level = 0
}

/// The labels and the descriptions of the children of `subscription`'s custom mirror.
private func children(_ subscription: (any Subscription)?) -> [(String?, String)] {
  // Unwrapped first: `Optional` is itself reflectable.
  guard let subscription, let reflectable = subscription as? any CustomReflectable else {
    return []
  }
  return reflectable.customMirror.children.map { ($0.label, String(describing: $0.value)) }
}

/// The subscriber a subscription's mirror shows as its `downstream`, if it is `keeper`.
private func showsDownstream<Input, Failure>(
  _ subscription: (any Subscription)?, _ keeper: Keeper<Input, Failure>
) -> Bool {
  guard let subscription, let reflectable = subscription as? any CustomReflectable,
    let child = reflectable.customMirror.children.first(where: { $0.label == "downstream" }),
    let downstream = child.value as? Keeper<Input, Failure>?
  else { return false }
  return downstream === keeper
}

@Suite("Subjects in a debugger: descriptions, mirrors and playground descriptions")
struct SubjectReflectionTests {
  @Test("a PassthroughSubject's subscription shows Combine's name, playground value and children")
  func passthroughSubscription() throws {
    let subject = PassthroughSubject<Int, Never>()
    let keeper = Keeper<Int, Never>()
    subject.subscribe(keeper)
    let subscription = try #require(keeper.subscription)
    #expect((subscription as? any CustomStringConvertible)?.description == "PassthroughSubject")
    #expect(
      (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
        == "PassthroughSubject")
    #expect(!(subscription is any CustomDebugStringConvertible))
    let shown = children(subscription)
    #expect(shown.map(\.0) == ["parent", "downstream", "demand", "subject"])
    #expect(shown.first?.1 == "Optional(PassthroughSubject<Int, Never>)")
    #expect(shown.last?.1 == "Optional(PassthroughSubject<Int, Never>)")
    #expect(shown.dropFirst(2).first?.1 == "max(0)")
    #expect(showsDownstream(subscription, keeper))
  }

  @Test("the mirror shows the outstanding demand: requested, minus the values delivered")
  func demandChild() {
    let subject = PassthroughSubject<Int, Never>()
    let keeper = Keeper<Int, Never>()
    subject.subscribe(keeper)
    keeper.subscription?.request(.max(12))
    subject.send(1)
    #expect(children(keeper.subscription).dropFirst(2).first?.1 == "max(11)")
    keeper.subscription?.request(.unlimited)
    #expect(children(keeper.subscription).dropFirst(2).first?.1 == "unlimited")
  }

  @Test("after a cancel, the subject and the subscriber show nil; the demand stays, as in Combine")
  func afterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    let keeper = Keeper<Int, Never>()
    subject.subscribe(keeper)
    keeper.subscription?.request(.max(12))
    subject.send(1)
    keeper.subscription?.cancel()
    keeper.subscription?.request(.max(3))
    let shown = children(keeper.subscription)
    #expect(shown.map(\.1) == ["nil", "nil", "max(11)", "nil"])
  }

  @Test("after the completion, the subject and the subscriber show nil; the demand stays")
  func afterCompletion() {
    let subject = PassthroughSubject<Int, TestError>()
    let keeper = Keeper<Int, TestError>()
    subject.subscribe(keeper)
    keeper.subscription?.request(.max(12))
    subject.send(1)
    subject.send(completion: .finished)
    keeper.subscription?.cancel()
    keeper.subscription?.request(.max(3))
    #expect(children(keeper.subscription).map(\.1) == ["nil", "nil", "max(11)", "nil"])
  }

  @Test("a subscription that has ended no longer asks its subject for values")
  func requestAfterEndIsIgnored() {
    let subject = PassthroughSubject<Int, Never>()
    let keeper = Keeper<Int, Never>()
    var received: [Int] = []
    keeper.onValue = { received.append($0) }
    subject.subscribe(keeper)
    keeper.subscription?.cancel()
    keeper.subscription?.request(.max(1))
    subject.send(1)
    #expect(received.isEmpty)
    #expect(children(keeper.subscription).dropFirst(2).first?.1 == "max(0)")
  }

  @Test("a CurrentValueSubject's subscription counts the current value in its demand")
  func currentValueSubscription() {
    let subject = CurrentValueSubject<Int, Never>(42)
    let keeper = Keeper<Int, Never>()
    subject.subscribe(keeper)
    #expect("\(keeper.subscription.map { "\($0)" } ?? "")" == "CurrentValueSubject")
    #expect(
      keeper.subscription.flatMap {
        ($0 as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
      } == "CurrentValueSubject")
    keeper.subscription?.request(.max(12))
    subject.send(1)
    let shown = children(keeper.subscription)
    #expect(shown.map(\.0) == ["parent", "downstream", "demand", "subject"])
    #expect(shown.first?.1 == "Optional(CurrentValueSubject<Int, Never>)")
    #expect(shown.dropFirst(2).first?.1 == "max(10)")
    #expect(showsDownstream(keeper.subscription, keeper))
    keeper.subscription?.cancel()
    #expect(children(keeper.subscription).map(\.1) == ["nil", "nil", "max(10)", "nil"])
  }

  @Test("a $property subscription shows itself as Combine's PublishedSubject")
  func publishedSubscription() {
    let gauge = Gauge()
    let keeper = Keeper<Int, Never>()
    gauge.$level.subscribe(keeper)
    let shown = children(keeper.subscription)
    #expect(shown.map(\.0) == ["parent", "downstream", "demand", "subject"])
    #expect(shown.first?.1 == "Optional(PublishedSubject<Int, Never>)")
    #expect(
      keeper.subscription.flatMap {
        ($0 as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
      } == "PublishedSubject")
    #expect(showsDownstream(keeper.subscription, keeper))
  }

  @Test("an ObservableObjectPublisher's subscription shows only its subscriber, as Combine's")
  func observableObjectPublisherSubscription() {
    let publisher = ObservableObjectPublisher()
    let keeper = Keeper<Void, Never>()
    publisher.subscribe(keeper)
    #expect(children(keeper.subscription).map(\.0) == ["downstream"])
    #expect(showsDownstream(keeper.subscription, keeper))
    #expect(
      keeper.subscription.flatMap {
        ($0 as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
      } == "ObservableObjectPublisher")
    keeper.subscription?.cancel()
    #expect(children(keeper.subscription).map(\.1) == ["nil"])
  }

  @Test("a subscriber may read its subscription's mirror while it receives a value")
  func mirrorFromInsideDelivery() {
    let subject = PassthroughSubject<Int, Never>()
    let keeper = Keeper<Int, Never>()
    var seenInside: [(String?, String)] = []
    keeper.onValue = { _ in seenInside = children(keeper.subscription) }
    subject.subscribe(keeper)
    keeper.subscription?.request(.max(2))
    subject.send(1)
    #expect(seenInside.map(\.1).dropFirst(2).first == "max(1)")
    #expect(seenInside.first?.1 == "Optional(PassthroughSubject<Int, Never>)")
  }

  @Test("stress: mirrors read on other threads while values are sent and subscribers cancel")
  func stressMirrorsDuringDeliveries() async {
    let subject = PassthroughSubject<Int, Never>()
    let keepers = (0..<8).map { _ in Keeper<Int, Never>() }
    for keeper in keepers {
      subject.subscribe(keeper)
      keeper.subscription?.request(.unlimited)
    }
    let coherent = LockedBox(true)
    let box = UncheckedBox((subject, keepers))
    // Four threads send (each cancels one subscriber halfway, once its reader has started)
    // while four others read the mirrors of the subscribers being cancelled.
    let readersStarted = (0..<4).map { _ in DispatchSemaphore(value: 0) }
    await concurrentPerform(8) { iteration in
      let (subject, keepers) = box.value
      let keeper = keepers[iteration - iteration % 2]
      let readerStarted = readersStarted[iteration / 2]
      if iteration % 2 == 0 {
        for value in 0..<400 {
          subject.send(value)
          if value == 200 {
            _ = readerStarted.wait(timeout: .now() + 5)
            keeper.subscription?.cancel()
          }
        }
        return
      }
      for read in 0..<400 {
        if read == 1 { readerStarted.signal() }
        // One mirror: the subject and the subscriber are shown together, or neither.
        let mirror = keeper.subscription.flatMap { ($0 as? any CustomReflectable)?.customMirror }
        let shown = mirror?.children.map { String(describing: $0.value) } ?? []
        let downstream = mirror?.children.first { $0.label == "downstream" }?.value
        let live = (downstream as? Keeper<Int, Never>?).flatMap { $0 } === keeper
        let valid =
          shown.count == 4
          && (live
            ? shown[0] == "Optional(PassthroughSubject<Int, Never>)"
            : shown[0] == "nil" && shown[1] == "nil")
        if !valid { coherent.withLock { $0 = false } }
      }
    }
    #expect(coherent.withLock { $0 })
  }
}

/// Hands values that are only read under the subject's own synchronization to other threads.
private struct UncheckedBox<Value>: @unchecked Sendable {
  // @unchecked Sendable: the subjects and subscribers of the stress test are thread-safe to
  // use as it does (sends, cancels and mirror reads).
  let value: Value
  init(_ value: Value) { self.value = value }
}
