import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("append, prepend and Concatenate")
struct ConcatenateTests {
  // MARK: Normal path

  @Test("append and prepend of values, sequences and publishers keep the order")
  func variants() {
    let subject = PassthroughSubject<Int, Never>()
    let appended = subject.append(3, 4).record()
    let appendedSequence = subject.append(3...4).record()
    let appendedPublisher = subject.append(Just(3)).record()
    let prepended = subject.prepend(-1, 0).record()
    let prependedSequence = subject.prepend(-1...0).record()
    let prependedPublisher = subject.prepend(Just(0)).record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(appended.values == [1, 2, 3, 4])
    #expect(appendedSequence.values == [1, 2, 3, 4])
    #expect(appendedPublisher.values == [1, 2, 3])
    #expect(prepended.values == [-1, 0, 1, 2])
    #expect(prependedSequence.values == [-1, 0, 1, 2])
    #expect(prependedPublisher.values == [0, 1, 2])
    for recorder in [appended, appendedSequence, prepended, prependedSequence] {
      #expect(recorder.receivedCompletion.isFinished)
    }
  }

  @Test("the suffix is subscribed only after the prefix finished")
  func suffixWaitsForPrefix() {
    let prefix = PassthroughSubject<Int, Never>()
    let suffix = ManualPublisher<Int, Never>()
    let recorder = prefix.append(suffix).record()
    prefix.send(1)
    #expect(suffix.subscriptionCount == 0)
    prefix.send(completion: .finished)
    #expect(suffix.subscriptionCount == 1)
    suffix.send(2)
    #expect(recorder.receivedCompletion == nil)
    suffix.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
  }

  @Test("Concatenate keeps its prefix and suffix, and is Equatable when they are")
  func properties() {
    let concatenated = Publishers.Concatenate(prefix: Just(1), suffix: Just(2))
    #expect(concatenated.prefix == Just(1))
    #expect(concatenated.suffix == Just(2))
    #expect(concatenated == Just(1).append(Just(2)))
    #expect(concatenated != Just(1).append(Just(3)))
  }

  @Test("append and prepend on a sequence publisher fuse into one Publishers.Sequence")
  func sequenceFusion() {
    let appended: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3)
    let appendedSequence: Publishers.Sequence<[Int], Never> = [1].publisher.append([2, 3])
    let appendedPublisher: Publishers.Sequence<[Int], Never> = [1].publisher.append(
      [2].publisher)
    let prepended: Publishers.Sequence<[Int], Never> = [3].publisher.prepend(1, 2)
    let prependedSequence: Publishers.Sequence<[Int], Never> = [3].publisher.prepend(1...2)
    let prependedPublisher: Publishers.Sequence<[Int], Never> = [3].publisher.prepend(
      [2].publisher)
    #expect(appended.sequence == [1, 2, 3])
    #expect(appendedSequence.sequence == [1, 2, 3])
    #expect(appendedPublisher.sequence == [1, 2])
    #expect(prepended.sequence == [1, 2, 3])
    #expect(prependedSequence.sequence == [1, 2, 3])
    #expect(prependedPublisher.sequence == [2, 3])
  }

  @Test("empty prefix and suffix finish at once")
  func empty() {
    let recorder = Empty<Int, Never>().append(Empty()).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Failure

  @Test("a prefix failure is delivered and the suffix is never subscribed")
  func prefixFailure() {
    let suffix = ManualPublisher<Int, TestError>()
    let recorder = Fail<Int, TestError>(error: TestError(1)).append(suffix).record()
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(suffix.subscriptionCount == 0)
  }

  @Test("a suffix failure is delivered once")
  func suffixFailure() {
    let recorder = Publishers.Sequence<[Int], TestError>(sequence: [1])
      .append(Fail(error: TestError(2)))
      .record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(2))
    #expect(recorder.completionCount == 1)
  }

  // MARK: Demand

  @Test("demand the prefix did not use carries over to the suffix")
  func demandCarriesOver() {
    let prefix = ManualPublisher<Int, Never>()
    let suffix = ManualPublisher<Int, Never>()
    let recorder = prefix.append(suffix).record(initialDemand: .max(3))
    #expect(prefix.requested == .max(3))
    prefix.send(1)
    prefix.send(completion: .finished)
    #expect(suffix.requested == .max(2))
    suffix.send(2)
    suffix.send(3)
    #expect(!suffix.send(4))
    recorder.request(.max(1))
    #expect(suffix.send(4))
    #expect(recorder.values == [1, 2, 3, 4])
  }

  @Test("demand requested between prefix and suffix reaches the suffix")
  func demandWhileSwitching() {
    let prefix = PassthroughSubject<Int, Never>()
    let suffix = ManualPublisher<Int, Never>()
    let recorder = prefix.append(suffix).record(initialDemand: .none)
    prefix.send(completion: .finished)
    #expect(suffix.requested == .none)
    recorder.request(.max(2))
    #expect(suffix.requested == .max(2))
  }

  @Test("one value per request: prefix and suffix deliver within demand")
  func demandOneAtATime() {
    let recorder = [1, 2].publisher.append([3, 4].publisher.map { $0 })
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3, 4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Cancel

  @Test("cancel during the prefix cancels it and the suffix is never subscribed")
  func cancelDuringPrefix() {
    let prefix = ManualPublisher<Int, Never>()
    let suffix = ManualPublisher<Int, Never>()
    let recorder = prefix.append(suffix).record()
    prefix.send(1)
    recorder.cancel()
    #expect(prefix.isCancelled)
    #expect(!prefix.send(2))
    prefix.send(completion: .finished)
    #expect(suffix.subscriptionCount == 0)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel during the suffix cancels it")
  func cancelDuringSuffix() {
    let suffix = ManualPublisher<Int, Never>()
    let recorder = Just(1).append(suffix).record()
    recorder.cancel()
    #expect(suffix.isCancelled)
    #expect(!suffix.send(2))
  }

  @Test("a prefix subscription that arrives after cancel is cancelled at once")
  func lateSubscriptionCancelled() {
    let late = LateSubscriptionPublisher<Int, Never>()
    let recorder = late.append(1).record()
    recorder.cancel()
    late.deliverSubscription()
    #expect(late.subscription?.isCancelled == true)
    #expect(late.subscription?.requested == Subscribers.Demand.none)
  }

  @Test("the pipeline is freed after completion and after cancel")
  func freed() {
    weak var weakOwner: TestOwner?
    let prefix = PassthroughSubject<Int, Never>()
    let completed = LeakProbe<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = prefix.append(2).sink { owner.values.append($0) }
    }
    prefix.append(2).subscribe(completed)
    prefix.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
    prefix.send(completion: .finished)
    #expect(completed.values == [1, 2])
    #expect(completed.completion.isFinished)
    #expect(completed.subscriptionObject == nil)
  }

  // MARK: Re-entrancy

  @Test("cancelling from inside receive stops the prefix and skips the suffix")
  func reentrantCancel() {
    let suffix = ManualPublisher<Int, Never>()
    var received: [Int] = []
    var subscription: (any Subscription)?
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: {
        subscription = $0
        $0.request(.unlimited)
      },
      receiveValue: { value in
        received.append(value)
        subscription?.cancel()
        return .none
      },
      receiveCompletion: { _ in received.append(-1) })
    [1, 2, 3].publisher.append(suffix).subscribe(subscriber)
    #expect(received == [1])
    #expect(suffix.subscriptionCount == 0)
  }

  @Test(
    "a value sent into the prefix from inside receive passes through as the subject delivers it")
  func reentrantSend() {
    let prefix = PassthroughSubject<Int, Never>()
    var log: [String] = []
    var depth = 0
    let cancellable = prefix.append(9).sink { value in
      depth += 1
      defer { depth -= 1 }
      log.append("\(value)@\(depth)")
      if value == 1 { prefix.send(2) }
      if value == 2 { prefix.send(completion: .finished) }
    }
    prefix.send(1)
    // Only one upstream is live at a time, so values arrive as the upstream sends them: a
    // subject delivers a re-entrant send at once, nested, as in Combine.
    #expect(log == ["1@1", "2@2", "9@3"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("requesting from inside receive carries on into the suffix")
  func reentrantRequest() {
    let recorder = [1, 2].publisher.append([3].publisher.map { $0 })
      .record(initialDemand: .max(1), demandAfterEachValue: .max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Stress

  @Test("stress: demand requested from six threads carries over from prefix to suffix without loss")
  func stressDemandFromManyThreads() async {
    let prefix = ManualPublisher<Int, Never>()
    let suffix = ManualPublisher<Int, Never>()
    let subscriber = StressSubscriber<Int, Never>(initialDemand: .none)
    prefix.append(suffix).subscribe(subscriber)
    await runOnThreads(8) { thread in
      switch thread {
      case 0:
        for value in 0..<300 { prefix.sendWhenDemanded(value) }
        prefix.send(completion: .finished)
      case 1:
        while suffix.subscriptionCount == 0 { sched_yield() }
        for value in 300..<600 { suffix.sendWhenDemanded(value) }
        suffix.send(completion: .finished)
      default:
        for _ in 0..<100 { subscriber.request(.max(1)) }
      }
    }
    #expect(subscriber.values == Array(0..<600))
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
  }
}

// MARK: Combine's subscription timing, demand and release

extension ConcatenateTests {
  @Test("the subscriber receives its subscription when the prefix's arrives")
  func subscriptionWhenPrefixsArrives() {
    let prefix = LateSubscriptionUpstream<Int, Never>()
    let recorder = prefix.append(1).record(initialDemand: .max(2))
    #expect(!recorder.isSubscribed)
    prefix.send(completion: .finished)  // before the subscription: ignored
    #expect(recorder.receivedCompletion == nil)
    prefix.sendSubscription()
    #expect(recorder.isSubscribed)
    #expect(prefix.requests == [.max(2)])
  }

  @Test("a value sent without demand is ignored")
  func unwantedValueIgnored() {
    let prefix = ScriptedUpstream<Int, Never>()
    let recorder = prefix.append(9).record(initialDemand: .max(1))
    #expect(prefix.send(1) == .none)
    #expect(prefix.send(2) == .none)
    #expect(recorder.values == [1])
  }

  @Test("cancel releases the suffix at once")
  func cancelReleasesSuffix() {
    final class Box {}
    weak var released: Box?
    let recorder: TestSubscriber<Box, Never>
    do {
      let box = Box()
      released = box
      recorder = PassthroughSubject<Box, Never>().append(box).record()
    }
    #expect(released != nil)
    recorder.cancel()
    #expect(released == nil)
  }

  @Test("the subscriber attached upstream shares the subscription's combineIdentifier")
  func stageSubscribersShareIdentifier() {
    final class Capture: Subscriber {
      var subscription: (any Subscription)?
      func receive(subscription: any Subscription) { self.subscription = subscription }
      func receive(_ input: Int) -> Subscribers.Demand { .none }
      func receive(completion: Subscribers.Completion<Never>) {}
    }
    let prefix = LateSubscriptionUpstream<Int, Never>()
    let capture = Capture()
    prefix.append(1).subscribe(capture)
    prefix.sendSubscription()
    let stage = prefix.operatorAsSubscription
    #expect(stage != nil)
    #expect(stage?.combineIdentifier == capture.subscription?.combineIdentifier)
    stage?.cancel()  // a stage subscriber is a subscription too: it cancels the operator
    #expect(prefix.cancelCount == 1)
  }
}
