import CombineExCore
import CombineExTesting
import Synchronization
import Testing

/// The subjects whose subscriptions keep them alive, as Combine's do.
enum LifetimeSubjectKind: String, CaseIterable, CustomTestStringConvertible {
  case passthrough = "PassthroughSubject"
  case currentValue = "CurrentValueSubject"

  var testDescription: String { rawValue }

  func make() -> any Subject<Int, TestError> {
    switch self {
    case .passthrough: PassthroughSubject<Int, TestError>()
    case .currentValue: CurrentValueSubject<Int, TestError>(0)
    }
  }
}

/// A subject's subscription keeps the subject alive, as in Combine, until the subscription is
/// cancelled or completed (ARCHITECTURE.md rule 3); nothing is left behind afterwards.
@Suite("A subject's lifetime")
struct SubjectLifetimeTests {
  @Test(
    "a live subscription keeps the subject; a completion sent through a weak reference arrives",
    arguments: LifetimeSubjectKind.allCases)
  func subscriptionKeepsSubject(_ kind: LifetimeSubjectKind) {
    weak var weakSubject: (any Subject<Int, TestError>)?
    let recorder: TestSubscriber<Int, TestError>
    do {
      let subject = kind.make()
      weakSubject = subject
      recorder = subject.dropFirstIfCurrentValue(kind).record()
    }
    #expect(weakSubject != nil)
    weakSubject?.send(1)
    weakSubject?.send(completion: .failure(TestError(3)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
    #expect(weakSubject == nil)
  }

  @Test("cancel releases the subject", arguments: LifetimeSubjectKind.allCases)
  func cancelReleasesSubject(_ kind: LifetimeSubjectKind) {
    weak var weakSubject: (any Subject<Int, TestError>)?
    let cancellable: AnyCancellable
    do {
      let subject = kind.make()
      weakSubject = subject
      cancellable = subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }
    #expect(weakSubject != nil)
    cancellable.cancel()
    #expect(weakSubject == nil)
  }

  @Test(
    "the subject lives until its last subscription ends", arguments: LifetimeSubjectKind.allCases)
  func lastSubscriptionReleases(_ kind: LifetimeSubjectKind) {
    weak var weakSubject: (any Subject<Int, TestError>)?
    let first: AnyCancellable
    let second: AnyCancellable
    do {
      let subject = kind.make()
      weakSubject = subject
      first = subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
      second = subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }
    first.cancel()
    #expect(weakSubject != nil)
    second.cancel()
    #expect(weakSubject == nil)
  }

  @Test(
    "after the end, no cycle is left: subject, subscription and subscriber are freed",
    arguments: LifetimeSubjectKind.allCases, [false, true])
  func nothingLeftBehind(_ kind: LifetimeSubjectKind, completes: Bool) throws {
    weak var weakSubject: (any Subject<Int, TestError>)?
    weak var weakKeeper: SubscriptionKeeper<Int, TestError>?
    weak var weakSubscription: AnyObject?
    var subscription: (any Subscription)?
    do {
      let subject = kind.make()
      let keeper = SubscriptionKeeper<Int, TestError>()
      weakSubject = subject
      weakKeeper = keeper
      // The subscriber keeps its subscription, which keeps the subject, which keeps the
      // subscriber: Combine's cycle, broken at the end.
      subject.subscribe(keeper)
      subscription = keeper.subscription
      weakSubscription = subscription as AnyObject?
    }
    #expect(weakSubject != nil)
    if completes {
      weakSubject?.send(completion: .finished)
    } else {
      try #require(subscription).cancel()
    }
    subscription = nil
    #expect(weakSubject == nil)
    #expect(weakKeeper == nil)
    #expect(weakSubscription == nil)
  }

  @Test(
    "a subscriber that arrives after the completion does not keep the subject",
    arguments: LifetimeSubjectKind.allCases)
  func lateSubscriberDoesNotKeepSubject(_ kind: LifetimeSubjectKind) {
    weak var weakSubject: (any Subject<Int, TestError>)?
    let recorder: TestSubscriber<Int, TestError>
    do {
      let subject = kind.make()
      weakSubject = subject
      subject.send(completion: .finished)
      recorder = subject.record()
    }
    #expect(recorder.receivedCompletion == .finished)
    #expect(weakSubject == nil)
  }

  @Test(
    "a subscriber that cancels from inside a delivery releases the subject afterwards",
    arguments: LifetimeSubjectKind.allCases)
  func cancelInsideDeliveryReleases(_ kind: LifetimeSubjectKind) {
    weak var weakSubject: (any Subject<Int, TestError>)?
    let box = CancellableBox()
    do {
      let subject = kind.make()
      weakSubject = subject
      box.cancellable = subject.dropFirstIfCurrentValue(kind).sink(
        receiveCompletion: { _ in }, receiveValue: { _ in box.cancellable?.cancel() })
    }
    #expect(weakSubject != nil)
    weakSubject?.send(1)
    #expect(weakSubject == nil)
  }

  @Test(
    "the subject's deinit still cancels its upstreams, once its subscriptions have ended",
    arguments: LifetimeSubjectKind.allCases)
  func deinitCancelsUpstreamsAtTheEnd(_ kind: LifetimeSubjectKind) {
    let upstream = CancelCountingSubscription()
    let cancellable: AnyCancellable
    do {
      let subject = kind.make()
      subject.send(subscription: upstream)
      cancellable = subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }
    // As in Combine: the subscription keeps the subject, so its upstream stays connected.
    #expect(upstream.cancels == 0)
    cancellable.cancel()
    #expect(upstream.cancels == 1)
  }

  @Test("stress: cancels from many threads racing the completion leave the subject freed")
  func stressCancelsRacingCompletionReleaseSubject() async {
    for _ in 0..<50 {
      let cancellables: [AnyCancellable]
      let reference: WeakSubject
      do {
        let subject = PassthroughSubject<Int, Never>()
        reference = WeakSubject(subject)
        cancellables = (0..<8).map { _ in subject.sink { _ in } }
      }
      // Only the subscriptions keep the subject now.
      await concurrentPerform(9) { index in
        if index == 8 {
          reference.subject?.send(completion: .finished)
        } else {
          cancellables[index].cancel()
        }
      }
      #expect(reference.subject == nil)
    }
  }
}

/// An `ObservableObjectPublisher` is not kept alive by its subscriptions: Combine's
/// subscription holds its publisher weakly (OpenCombine, built from Combine's layout, shows the
/// same `weak var parent`). Nothing can observe it otherwise: it never completes.
@Suite("ObservableObjectPublisher's lifetime")
struct ObservableObjectPublisherLifetimeTests {
  @Test("a live subscription does not keep the publisher, as in Combine")
  func subscriptionDoesNotKeepPublisher() {
    weak var weakPublisher: ObservableObjectPublisher?
    let cancellable: AnyCancellable
    do {
      let publisher = ObservableObjectPublisher()
      weakPublisher = publisher
      cancellable = publisher.sink {}
    }
    #expect(weakPublisher == nil)
    cancellable.cancel()
  }
}

extension Subject where Output == Int {
  /// The subject's values, without a `CurrentValueSubject`'s initial value.
  fileprivate func dropFirstIfCurrentValue(_ kind: LifetimeSubjectKind) -> AnyPublisher<
    Int, Failure
  > {
    kind == .currentValue ? dropFirst().eraseToAnyPublisher() : eraseToAnyPublisher()
  }
}

/// A cancellable set after the subscription is made, for a subscriber that cancels itself.
private final class CancellableBox: @unchecked Sendable {
  // @unchecked Sendable: single-threaded test.
  var cancellable: AnyCancellable?
}

/// An upstream subscription that counts its cancels.
private final class CancelCountingSubscription: Subscription, Sendable {
  private let count = Atomic<Int>(0)
  var cancels: Int { count.load(ordering: .relaxed) }
  func request(_ demand: Subscribers.Demand) {}
  func cancel() { count.add(1, ordering: .relaxed) }
}

/// A subject held weakly, readable from any thread.
private final class WeakSubject: @unchecked Sendable {
  // @unchecked Sendable: written once in `init`; loading a weak reference is thread-safe.
  weak var subject: PassthroughSubject<Int, Never>?
  init(_ subject: PassthroughSubject<Int, Never>) { self.subject = subject }
}
