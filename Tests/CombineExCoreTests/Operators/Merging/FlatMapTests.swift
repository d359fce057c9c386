import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("flatMap")
struct FlatMapTests {
  // MARK: Normal path

  @Test("republishes the values of every inner publisher")
  func republishesInnerValues() {
    let recorder = [1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher }.record()
    #expect(recorder.values == [1, 10, 2, 20, 3, 30])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("interleaves inner publishers that are live at the same time")
  func interleavesLiveInners() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = [PassthroughSubject<String, Never>(), PassthroughSubject<String, Never>()]
    let recorder = upstream.flatMap { inners[$0] }.record()
    upstream.send(0)
    upstream.send(1)
    inners[1].send("b1")
    inners[0].send("a1")
    inners[1].send("b2")
    #expect(recorder.values == ["b1", "a1", "b2"])
  }

  @Test("finishes only after the upstream and every inner publisher finished")
  func finishesAfterUpstreamAndInners() {
    let upstream = PassthroughSubject<Int, Never>()
    let inner = PassthroughSubject<Int, Never>()
    let recorder = upstream.flatMap { _ in inner }.record()
    upstream.send(0)
    upstream.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    inner.send(1)
    inner.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
  }

  @Test("an empty upstream finishes at once without calling the transform")
  func emptyUpstream() {
    var calls = 0
    let recorder = Empty<Int, Never>().flatMap { value -> Just<Int> in
      calls += 1
      return Just(value)
    }.record()
    #expect(recorder.receivedCompletion.isFinished)
    #expect(calls == 0)
  }

  // MARK: maxPublishers

  @Test(
    "maxPublishers: .max(1) is a concatenation: the next inner publisher waits for the previous one"
  )
  func maxOneIsConcat() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<3).map { _ in ManualPublisher<Int, Never>() }
    let recorder = upstream.flatMap(maxPublishers: .max(1)) { inners[$0] }.record()
    upstream.send(0)
    upstream.send(1)  // dropped by the subject: flatMap asked for one upstream value only
    #expect(inners[0].subscriptionCount == 1)
    #expect(inners[1].subscriptionCount == 0)
    inners[0].send(10)
    inners[0].send(completion: .finished)
    upstream.send(1)
    #expect(inners[1].subscriptionCount == 1)
    inners[1].send(11)
    inners[1].send(completion: .finished)
    upstream.send(2)
    upstream.send(completion: .finished)
    inners[2].send(12)
    #expect(recorder.receivedCompletion == nil)
    inners[2].send(completion: .finished)
    #expect(recorder.values == [10, 11, 12])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("maxPublishers: .max(1) over a sequence keeps the order of the sequence")
  func maxOneOverSequence() {
    let recorder = [1, 2, 3].publisher
      .flatMap(maxPublishers: .max(1)) { [$0, $0].publisher }
      .record()
    #expect(recorder.values == [1, 1, 2, 2, 3, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the upstream is asked for maxPublishers values, and one more as each inner finishes")
  func upstreamDemandFollowsMaxPublishers() {
    let upstream = ManualPublisher<Int, Never>()
    let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    _ = upstream.flatMap(maxPublishers: .max(2)) { inners[$0] }.record()
    #expect(upstream.requested == .max(2))
    upstream.send(0)
    upstream.send(1)
    #expect(!upstream.send(2))
    inners[0].send(completion: .finished)
    #expect(upstream.requested == .max(3))
    #expect(upstream.send(2))
  }

  @Test("with unlimited maxPublishers the upstream is asked for unlimited values")
  func unlimitedMaxPublishers() {
    let upstream = ManualPublisher<Int, Never>()
    _ = upstream.flatMap { Just($0) }.record()
    #expect(upstream.requested == .unlimited)
  }

  // MARK: Demand

  @Test("each inner publisher is asked for one value, and one more per value delivered")
  func asksOneValueAtATime() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<2).map { _ in ScriptedUpstream<Int, Never>() }
    let recorder = upstream.flatMap { inners[$0] }.record(initialDemand: .max(2))
    upstream.send(0)
    upstream.send(1)
    #expect(inners[0].requests == [.max(1)])
    #expect(inners[1].requests == [.max(1)])
    #expect(inners[0].send(1) == .max(1))  // delivered: its receive asks for one more
    #expect(inners[0].send(2) == .max(1))
    #expect(inners[0].send(3) == .none)  // beyond the demand: waits, nothing more asked
    #expect(recorder.values == [1, 2])
    #expect(inners[0].requests == [.max(1)])
  }

  @Test("a value beyond the demand waits, and its inner is asked for one more when it goes out")
  func waitingValueAsksForOneMore() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<2).map { _ in ScriptedUpstream<Int, Never>() }
    let recorder = upstream.flatMap { inners[$0] }.record(initialDemand: .max(1))
    upstream.send(0)
    upstream.send(1)
    #expect(inners[1].send(1) == .max(1))
    #expect(inners[0].send(0) == .none)  // the downstream's demand is used up: waits
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 0])
    #expect(inners[0].requests == [.max(1), .max(1)])
    #expect(inners[1].requests == [.max(1)])
  }

  @Test("a value sent from inside receive within the demand asks for one more at once")
  func reentrantCoveredValue() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<2).map { _ in ScriptedUpstream<Int, Never>() }
    var returnedInside: Subscribers.Demand?
    let subscriber = CallbackSubscriber<Int, Never>(initialDemand: .max(2)) { value, _ in
      if value == 1 { returnedInside = inners[1].send(2) }
      return .none
    }
    upstream.flatMap { inners[$0] }.subscribe(subscriber)
    upstream.send(0)
    upstream.send(1)
    #expect(inners[0].send(1) == .max(1))
    #expect(returnedInside == .max(1))  // covered by the demand: delivered right after
    #expect(subscriber.values == [1, 2])
    #expect(inners[1].requests == [.max(1)])
  }

  @Test("no demand: inner publishers are subscribed but asked for nothing")
  func noDemand() {
    let recorder = [1, 2].publisher.flatMap { [$0].publisher }.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    recorder.request(.unlimited)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an inner publisher is asked for one value whatever the demand, unless it is unlimited")
  func innerAskedForOne() {
    let upstream = PassthroughSubject<Int, Never>()
    let inner = ManualPublisher<Int, Never>()
    let recorder = upstream.flatMap { _ in inner }.record(initialDemand: .max(3))
    upstream.send(0)
    #expect(inner.requested == .max(1))
    recorder.request(.unlimited)
    #expect(inner.requested == .unlimited)
    let unlimitedInner = ManualPublisher<Int, Never>()
    _ = upstream.flatMap { _ in unlimitedInner }.record()
    upstream.send(0)
    #expect(unlimitedInner.requested == .unlimited)
  }

  @Test("the upstream is asked for maxPublishers when it subscribes, even .max(0)")
  func upstreamAskedForZero() {
    let upstream = ScriptedUpstream<Int, Never>()
    _ = upstream.flatMap(maxPublishers: .max(0)) { Just($0) }.record()
    #expect(upstream.requests == [.max(0)])
  }

  @Test("an upstream subscription that arrives after cancel is cancelled at once, unasked")
  func lateUpstreamSubscriptionCancelled() {
    let late = LateSubscriptionPublisher<Int, Never>()
    let recorder = late.flatMap { Just($0) }.record()
    recorder.cancel()
    late.deliverSubscription()
    #expect(late.subscription?.isCancelled == true)
    #expect(late.subscription?.requested == Subscribers.Demand.none)
  }

  @Test("an inner subscription that arrives after cancel is cancelled at once, unasked")
  func lateInnerSubscriptionCancelled() {
    let upstream = PassthroughSubject<Int, Never>()
    let late = LateSubscriptionPublisher<Int, Never>()
    let recorder = upstream.flatMap { _ in late }.record()
    upstream.send(1)
    recorder.cancel()
    late.deliverSubscription()
    #expect(late.subscription?.isCancelled == true)
    #expect(late.subscription?.requested == Subscribers.Demand.none)
  }

  @Test("a request of zero is an API violation")
  func zeroRequestTraps() async {
    await #expect(processExitsWith: .failure) {
      let recorder = Just(1).flatMap { Just($0) }.record(initialDemand: .none)
      recorder.request(.none)
    }
  }

  // MARK: Failure

  @Test("an inner failure is delivered once and cancels the upstream and the other inners")
  func innerFailureCancelsEverything() {
    let upstream = PassthroughSubject<Int, TestError>()
    let inners = (0..<2).map { _ in ManualPublisher<Int, TestError>() }
    var upstreamCancelled = false
    let recorder = upstream.handleCancelForTest { upstreamCancelled = true }
      .flatMap { inners[$0] }
      .record()
    upstream.send(0)
    upstream.send(1)
    inners[1].send(completion: .failure(TestError(1)))
    inners[0].send(completion: .failure(TestError(0)))
    upstream.send(completion: .failure(TestError(2)))
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(recorder.completionCount == 1)
    #expect(upstreamCancelled)
    #expect(inners[0].isCancelled)
    #expect(!inners[1].isCancelled)
  }

  @Test("an upstream failure is delivered once and cancels every inner publisher")
  func upstreamFailureCancelsInners() {
    let upstream = PassthroughSubject<Int, TestError>()
    let inners = (0..<2).map { _ in ManualPublisher<Int, TestError>() }
    let recorder = upstream.flatMap { inners[$0] }.record()
    upstream.send(0)
    upstream.send(1)
    inners[0].send(5)
    upstream.send(completion: .failure(TestError(3)))
    #expect(!inners[1].send(6))
    #expect(recorder.values == [5])
    #expect(recorder.receivedCompletion?.failure == TestError(3))
    #expect(inners.allSatisfy { $0.isCancelled })
  }

  @Test("a failure overtakes values waiting for demand")
  func failureOvertakesBufferedValues() {
    let upstream = PassthroughSubject<Int, TestError>()
    let inners = (0..<2).map { _ in ManualPublisher<Int, TestError>() }
    let recorder = upstream.flatMap { inners[$0] }.record(initialDemand: .max(1))
    upstream.send(0)
    upstream.send(1)
    inners[0].send(1)
    inners[1].send(2)  // waits
    inners[0].send(completion: .failure(TestError(9)))
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(9))
  }

  // MARK: Failure-type overloads

  @Test("a never-failing upstream flat-maps into failing publishers")
  func neverFailingUpstreamFailingInner() {
    let recorder = [1, 2].publisher
      .flatMap { value -> AnyPublisher<Int, TestError> in
        value == 2
          ? Fail(error: TestError(2)).eraseToAnyPublisher()
          : Publishers.Sequence(sequence: [value]).eraseToAnyPublisher()
      }
      .record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(2))
  }

  @Test("a failing upstream flat-maps into never-failing publishers and keeps its failure")
  func failingUpstreamNeverFailingInner() {
    let upstream = PassthroughSubject<Int, TestError>()
    let recorder = upstream.flatMap { Just($0 * 2) }.record()
    upstream.send(1)
    upstream.send(completion: .failure(TestError(4)))
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion?.failure == TestError(4))
  }

  @Test("never-failing on both sides gives a plain FlatMap")
  func neverOnBothSides() {
    let flatMapped: Publishers.FlatMap<Just<Int>, Publishers.Sequence<[Int], Never>> = [1, 2]
      .publisher.flatMap { Just($0) }
    let sameFailure: Publishers.FlatMap<Fail<Int, TestError>, Fail<Int, TestError>> =
      Fail<Int, TestError>(error: TestError(1)).flatMap { _ in
        Fail<Int, TestError>(error: TestError(2))
      }
    #expect(flatMapped.record().values == [1, 2])
    #expect(flatMapped.maxPublishers == .unlimited)
    #expect(sameFailure.record().receivedCompletion?.failure == TestError(1))
  }

  // MARK: Cancel

  @Test("subscriptions that are structs, not classes, are asked and cancelled as classes are")
  func structSubscriptionsAreAskedAndCancelled() {
    let upstream = StructSubscriptionPublisher()
    let inners = [StructSubscriptionPublisher(), StructSubscriptionPublisher()]
    let recorder = upstream.flatMap(maxPublishers: .max(2)) { inners[$0] }
      .record(initialDemand: .max(1))
    #expect(upstream.log.requests == [.max(2)])
    _ = upstream.log.send?(0)
    _ = upstream.log.send?(1)
    #expect(inners.map(\.log.requests) == [[.max(1)], [.max(1)]])
    #expect(inners[1].log.send?(7) == .max(1))  // delivered: its receive asks for one more
    recorder.request(.unlimited)  // every inner is asked for unlimited, through the merge
    #expect(inners.map(\.log.requests) == [[.max(1), .unlimited], [.max(1), .unlimited]])
    recorder.cancel()
    #expect(upstream.log.cancels == 1)
    #expect(inners.map(\.log.cancels) == [1, 1])
    #expect(recorder.values == [7])
    for publisher in [upstream] + inners { publisher.log.send = nil }
  }

  @Test("cancel reaches the upstream and every inner publisher; nothing follows it")
  func cancelReachesEverything() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<2).map { _ in ManualPublisher<Int, Never>() }
    var upstreamCancelled = false
    let recorder = upstream.handleCancelForTest { upstreamCancelled = true }
      .flatMap { inners[$0] }
      .record()
    upstream.send(0)
    upstream.send(1)
    inners[0].send(1)
    recorder.cancel()
    #expect(!inners[1].send(2))
    upstream.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
    #expect(upstreamCancelled)
    #expect(inners.allSatisfy { $0.isCancelled })
  }

  @Test("the pipeline is freed after completion")
  func freedAfterCompletion() {
    let upstream = PassthroughSubject<Int, Never>()
    let inner = PassthroughSubject<Int, Never>()
    let probe = LeakProbe<Int, Never>()
    upstream.flatMap { _ in inner }.subscribe(probe)
    upstream.send(0)
    upstream.send(completion: .finished)
    inner.send(completion: .finished)
    #expect(probe.completion.isFinished)
    #expect(probe.subscriptionObject == nil)
  }

  @Test("the pipeline and the closures it holds are freed after cancel")
  func freedAfterCancel() {
    weak var weakOwner: TestOwner?
    let upstream = PassthroughSubject<Int, Never>()
    let inner = PassthroughSubject<Int, Never>()
    let probe = LeakProbe<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = upstream.flatMap { _ in inner }.sink { owner.values.append($0) }
    }
    upstream.flatMap { _ in inner }.subscribe(probe)
    upstream.send(0)
    inner.send(7)
    #expect(weakOwner?.values == [7])
    cancellable?.cancel()
    probe.cancel()
    #expect(weakOwner == nil)
    #expect(probe.subscriptionObject == nil)
  }

  @Test("a large failure type: values, the failure, and the pipeline freed after it")
  func largeFailureTypeDeliversAndFrees() {
    // A failure this large makes the merge's state too large to be kept in place in its
    // subscription object: it lives in memory of its own, freed with the subscription.
    weak var weakOwner: TestOwner?
    let upstream = PassthroughSubject<Int, LargeError>()
    let inner = PassthroughSubject<Int, LargeError>()
    let probe = LeakProbe<Int, LargeError>()
    var completions: [Subscribers.Completion<LargeError>] = []
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = upstream.flatMap { _ in inner }.sink(
        receiveCompletion: { completions.append($0) },
        receiveValue: { owner.values.append($0) })
    }
    upstream.flatMap { _ in inner }.subscribe(probe)
    upstream.send(0)
    inner.send(7)
    inner.send(completion: .failure(LargeError(code: 3)))
    #expect(weakOwner == nil)
    #expect(completions == [.failure(LargeError(code: 3))])
    #expect(probe.completion == .failure(LargeError(code: 3)))
    #expect(probe.subscriptionObject == nil)
    withExtendedLifetime(cancellable) {}
  }

  // MARK: Re-entrancy

  @Test("cancelling from inside receive stops delivery and cancels every input")
  func reentrantCancel() {
    let upstream = ManualPublisher<Int, Never>()
    let inner = ManualPublisher<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = upstream.flatMap { _ in inner }.sink { value in
      received.append(value)
      cancellable?.cancel()
    }
    upstream.send(0)
    inner.send(1)
    #expect(!inner.send(2))
    #expect(received == [1])
    #expect(upstream.isCancelled)
    #expect(inner.isCancelled)
  }

  @Test("values sent into inputs from inside receive are delivered after it returns, in order")
  func reentrantSend() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
    var log: [String] = []
    var depth = 0
    let cancellable = upstream.flatMap { inners[$0] }.sink { value in
      depth += 1
      defer { depth -= 1 }
      log.append("\(value)@\(depth)")
      if value == 1 {
        inners[1].send(2)
        inners[0].send(3)
      }
    }
    upstream.send(0)
    upstream.send(1)
    inners[0].send(1)
    #expect(log == ["1@1", "2@1", "3@1"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a new inner publisher made from inside receive joins in")
  func reentrantUpstreamSend() {
    let upstream = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = upstream.flatMap { [$0, $0 + 1].publisher }.sink { value in
      received.append(value)
      if value == 1 { upstream.send(10) }
    }
    upstream.send(0)
    #expect(received == [0, 1, 10, 11])
    withExtendedLifetime(cancellable) {}
  }

  // MARK: Stress

  @Test(
    "stress: eight inner publishers driven from eight threads lose nothing, deliver serially, complete once"
  )
  func stressEightInners() async {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let subscriber = StressSubscriber<Int, Never>()
    upstream.flatMap { inners[$0] }.subscribe(subscriber)
    for index in 0..<8 { upstream.send(index) }
    upstream.send(completion: .finished)
    await concurrentPerform(8) { thread in
      for value in 0..<1000 { inners[thread].send(thread * 10_000 + value) }
      inners[thread].send(completion: .finished)
    }
    let values = subscriber.values
    #expect(values.count == 8000)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    for thread in 0..<8 {
      #expect(values.filter { $0 / 10_000 == thread } == (0..<1000).map { thread * 10_000 + $0 })
    }
  }

  @Test("stress: inner publishers created and completed from eight threads at once lose nothing")
  func stressInnersCreatedConcurrently() async {
    let upstream = PassthroughSubject<Int, Never>()
    let subscriber = StressSubscriber<Int, Never>()
    upstream.flatMap { [$0, -$0].publisher }.subscribe(subscriber)
    await concurrentPerform(8) { thread in
      for value in 1...500 { upstream.send(thread * 10_000 + value) }
    }
    upstream.send(completion: .finished)
    let values = subscriber.values
    #expect(values.count == 8000)
    #expect(Set(values).count == 8000)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
  }

  @Test(
    "stress: with one value of demand at a time, eight inner publishers on eight threads lose nothing"
  )
  func stressBoundedDemand() async {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<8).map { _ in ManualPublisher<Int, Never>() }
    let subscriber = StressSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    upstream.flatMap { inners[$0] }.subscribe(subscriber)
    for index in 0..<8 { upstream.send(index) }
    upstream.send(completion: .finished)
    await concurrentPerform(8) { thread in
      for value in 0..<300 { inners[thread].sendWhenDemanded(thread * 10_000 + value) }
      inners[thread].send(completion: .finished)
    }
    #expect(subscriber.values.count == 2400)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    for inner in inners {
      #expect(inner.requested <= .max(2401))
    }
  }

  @Test(
    "stress: maxPublishers .max(1) concatenates 32 inner publishers fed from eight threads: each inner whole and in order, inners in upstream order, one completion",
    arguments: [Subscribers.Demand.unlimited, .max(1)])
  func stressConcat(initialDemand: Subscribers.Demand) async {
    let innerCount = 32
    let valuesPerInner = 100
    let upstream = ManualPublisher<Int, Never>()
    let inners = (0..<innerCount).map { _ in ManualPublisher<Int, Never>() }
    // Unlimited demand up front, or one value at a time (asked for again after each value).
    let subscriber = OrderedStressSubscriber<Int, Never>(
      initialDemand: initialDemand,
      demandPerValue: initialDemand == .unlimited ? .none : initialDemand)
    upstream.flatMap(maxPublishers: .max(1)) { inners[$0] }.subscribe(subscriber)
    // Threads 0...7 each feed every eighth inner publisher, as soon as the concatenation has
    // subscribed to it and asked for values; thread 8 sends the inners' indices as the
    // concatenation asks for them. So each inner's first values race the previous inner's
    // completion, and the subscription of the next one.
    await runOnThreads(9) { thread in
      guard thread < 8 else {
        for index in 0..<innerCount { upstream.sendWhenDemanded(index) }
        upstream.send(completion: .finished)
        return
      }
      for index in stride(from: thread, to: innerCount, by: 8) {
        for value in 0..<valuesPerInner { inners[index].sendWhenDemanded(index * 1000 + value) }
        inners[index].send(completion: .finished)
      }
    }
    let expected = (0..<innerCount).flatMap { index in
      (0..<valuesPerInner).map { index * 1000 + $0 }
    }
    #expect(subscriber.values == expected)
    #expect(subscriber.completions == 1)
    #expect(!subscriber.valueAfterCompletion)
    #expect(subscriber.overlaps == 0)
    #expect(inners.allSatisfy { $0.subscriptionCount == 1 })
    // The upstream is asked for one inner at a time: one up front, one more per finished inner.
    #expect(upstream.requested <= .max(innerCount + 1))
    if initialDemand != .unlimited {
      // Each inner is asked for one value at a time: one, then one more per value delivered.
      for inner in inners { #expect(inner.requested <= .max(valuesPerInner + 1)) }
    }
  }

  @Test("stress: a failure racing values from eight threads completes exactly once")
  func stressFailureRace() async {
    for _ in 0..<20 {
      let upstream = PassthroughSubject<Int, TestError>()
      let inners = (0..<8).map { _ in PassthroughSubject<Int, TestError>() }
      let subscriber = StressSubscriber<Int, TestError>()
      upstream.flatMap { inners[$0] }.subscribe(subscriber)
      for index in 0..<8 { upstream.send(index) }
      await concurrentPerform(8) { thread in
        for value in 0..<100 { inners[thread].send(value) }
        inners[thread].send(completion: .failure(TestError(thread)))
      }
      #expect(subscriber.completions == 1)
      #expect(subscriber.overlaps == 0)
    }
  }
}

/// A failure of forty words: too large for a merge to keep its state in place.
private struct LargeError: Error, Equatable {
  var code: Int
  var words:
    (
      Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
      Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
      Int, Int, Int
    ) = (
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0
    )

  init(code: Int) {
    self.code = code
  }

  static func == (lhs: LargeError, rhs: LargeError) -> Bool { lhs.code == rhs.code }
}

/// A publisher whose subscription is a struct (Combine's and CombineEx's are classes), which
/// records what it is asked in `log` and lets the test send values to its subscriber.
private struct StructSubscriptionPublisher: Publisher {
  typealias Output = Int
  typealias Failure = Never

  let log = StructSubscriptionLog()

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    log.send = { subscriber.receive($0) }
    subscriber.receive(subscription: StructSubscription(log: log))
  }
}

/// What a ``StructSubscription`` was asked (a test runs on one thread).
private final class StructSubscriptionLog {
  var requests: [Subscribers.Demand] = []
  var cancels = 0
  /// Sends a value to the subscriber; set to `nil` at the end of a test (it holds the
  /// subscriber).
  var send: ((Int) -> Subscribers.Demand)?
}

private struct StructSubscription: Subscription {
  let log: StructSubscriptionLog
  let combineIdentifier = CombineIdentifier()

  func request(_ demand: Subscribers.Demand) { log.requests.append(demand) }

  func cancel() { log.cancels += 1 }
}
