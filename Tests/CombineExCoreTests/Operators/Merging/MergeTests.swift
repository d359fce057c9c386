import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("merge")
struct MergeTests {
  // MARK: Normal path

  @Test("interleaves the values of both publishers in arrival order")
  func interleaves() {
    let letters = PassthroughSubject<String, Never>()
    let digits = PassthroughSubject<String, Never>()
    let recorder = letters.merge(with: digits).record()
    letters.send("a")
    digits.send("1")
    letters.send("b")
    digits.send("2")
    #expect(recorder.values == ["a", "1", "b", "2"])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("finishes only once every publisher has finished")
  func finishesAfterAll() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let recorder = first.merge(with: second).record()
    first.send(1)
    first.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    second.send(2)
    second.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
  }

  @Test("merging synchronous publishers delivers each one's values in turn")
  func synchronousPublishers() {
    let recorder = [1, 2].publisher.merge(with: [3, 4].publisher.map { $0 }).record()
    #expect(recorder.values == [1, 2, 3, 4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("merging empty publishers finishes at once")
  func emptyInputs() {
    let recorder = Empty<Int, Never>().merge(with: [Int]().publisher).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("merge(with:_:...) merges three to eight publishers")
  func mergeThreeToEight() {
    let s = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let m3: Publishers.Merge3 = s[0].merge(with: s[1], s[2])
    let m4: Publishers.Merge4 = s[0].merge(with: s[1], s[2], s[3])
    let m5: Publishers.Merge5 = s[0].merge(with: s[1], s[2], s[3], s[4])
    let m6: Publishers.Merge6 = s[0].merge(with: s[1], s[2], s[3], s[4], s[5])
    let m7: Publishers.Merge7 = s[0].merge(with: s[1], s[2], s[3], s[4], s[5], s[6])
    let m8: Publishers.Merge8 = s[0].merge(with: s[1], s[2], s[3], s[4], s[5], s[6], s[7])
    let recorders = [
      m3.record(), m4.record(), m5.record(), m6.record(), m7.record(), m8.record(),
    ]
    for (index, subject) in s.enumerated().reversed() {
      subject.send(index)
      subject.send(completion: .finished)
    }
    #expect(recorders[0].values == [2, 1, 0])
    #expect(recorders[3].values == [5, 4, 3, 2, 1, 0])
    #expect(recorders[5].values == [7, 6, 5, 4, 3, 2, 1, 0])
    for (offset, recorder) in recorders.enumerated() {
      #expect(recorder.values.count == offset + 3)
      #expect(recorder.receivedCompletion.isFinished)
    }
  }

  @Test("Merge.merge(with:) grows into Merge3 ... Merge8 without nesting")
  func chainingTypes() {
    let a = Just(1)
    // Built directly: `Just.map` is fused into a `Just`, as in Combine.
    let b = Publishers.Map(upstream: Just(2)) { $0 }
    let merge = Publishers.Merge(a, b)
    let m3: Publishers.Merge3<Just<Int>, Publishers.Map<Just<Int>, Int>, Just<Int>> = merge.merge(
      with: Just(3))
    let m8:
      Publishers.Merge8<
        Just<Int>, Publishers.Map<Just<Int>, Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>,
        Just<Int>, Just<Int>
      > = merge.merge(with: Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))
    let m8From3: Publishers.Merge8 = m3.merge(with: Just(4), Just(5), Just(6), Just(7), Just(8))
    let m7: Publishers.Merge7 = merge.merge(with: Just(3), Just(4), Just(5), Just(6), Just(7))
    let m8From7: Publishers.Merge8 = m7.merge(with: Just(8))
    #expect(m3.record().values == [1, 2, 3])
    #expect(m8.record().values == [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(m8From3.record().values == [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(m8From7.record().values == [1, 2, 3, 4, 5, 6, 7, 8])
  }

  @Test("Merge and Merge3 are Equatable when their publishers are")
  func equatable() {
    #expect(Publishers.Merge(Just(1), Just(2)) == Publishers.Merge(Just(1), Just(2)))
    #expect(Publishers.Merge(Just(1), Just(2)) != Publishers.Merge(Just(1), Just(3)))
    #expect(Just(1).merge(with: Just(2), Just(3)) == Just(1).merge(with: Just(2), Just(3)))
  }

  // MARK: Failure

  @Test("a failure is delivered once and cancels the other publisher")
  func failureCancelsOthers() {
    let first = PassthroughSubject<Int, TestError>()
    let second = PassthroughSubject<Int, TestError>()
    var secondCancelled = false
    let recorder = first.merge(with: second.handleCancelForTest { secondCancelled = true })
      .record()
    first.send(1)
    first.send(completion: .failure(TestError(1)))
    second.send(2)
    second.send(completion: .failure(TestError(2)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(recorder.completionCount == 1)
    #expect(secondCancelled)
  }

  @Test("a failure overtakes values waiting for demand, which are dropped")
  func failureDropsBufferedValues() {
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, TestError>()
    let recorder = first.merge(with: second).record(initialDemand: .max(1))
    first.send(1)
    second.send(2)  // waits: the downstream's demand is used up
    first.send(completion: .failure(TestError(3)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(3))
    #expect(second.isCancelled)
  }

  @Test("a failure sent from inside receive comes after the values sent before it")
  func failureAfterValuesQueuedBehindADelivery() {
    let first = PassthroughSubject<Int, TestError>()
    let second = PassthroughSubject<Int, TestError>()
    var received: [Int] = []
    var completion: Subscribers.Completion<TestError>?
    let cancellable = first.merge(with: second).sink(
      receiveCompletion: { completion = $0 },
      receiveValue: { value in
        received.append(value)
        if value == 1 {
          // Both arrive while 1 is being delivered: 2 waits behind it, then the failure.
          second.send(2)
          first.send(completion: .failure(TestError(3)))
        }
      })
    first.send(1)
    #expect(received == [1, 2])
    #expect(completion?.failure == TestError(3))
    withExtendedLifetime(cancellable) {}
  }

  @Test("a failure from inside receive drops a queued value that has no demand")
  func failureDropsQueuedValueWithoutDemand() {
    let first = PassthroughSubject<Int, TestError>()
    let second = PassthroughSubject<Int, TestError>()
    let recorder = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    let subscriber = AnySubscriber<Int, TestError>(
      receiveSubscription: { recorder.receive(subscription: $0) },
      receiveValue: { value in
        _ = recorder.receive(value)
        // `second` was asked for a value too (each input is granted the free demand), but 1
        // used up the subscriber's demand: 2 waits for more, and the failure drops it.
        second.send(2)
        first.send(completion: .failure(TestError(3)))
        return .none
      },
      receiveCompletion: { recorder.receive(completion: $0) })
    first.merge(with: second).subscribe(subscriber)
    first.send(1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure == TestError(3))
    #expect(recorder.completionCount == 1)
  }

  @Test("demand asked inside receive serves values queued before a failure")
  func demandInsideReceiveServesValuesBeforeFailure() {
    let first = PassthroughSubject<Int, TestError>()
    let recorder = TestSubscriber<Int, TestError>(initialDemand: .max(1))
    let subscriber = AnySubscriber<Int, TestError>(
      receiveSubscription: { recorder.receive(subscription: $0) },
      receiveValue: { value in
        _ = recorder.receive(value)
        if value == 1 {
          recorder.request(.max(1))  // Reaches the subject, which then sends 2 at once.
          first.send(2)
          first.send(completion: .failure(TestError(3)))
        }
        return .none
      },
      receiveCompletion: { recorder.receive(completion: $0) })
    Publishers.MergeMany([first]).subscribe(subscriber)
    first.send(1)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion?.failure == TestError(3))
  }

  @Test("after a synchronous failure of the first publisher, the others are not subscribed")
  func failureDuringSubscription() {
    let second = ManualPublisher<Int, TestError>()
    let recorder = Fail<Int, TestError>(error: TestError(5)).merge(with: second).record()
    #expect(recorder.receivedCompletion?.failure == TestError(5))
    #expect(second.subscriptionCount == 0)
  }

  // MARK: Demand

  @Test("with .max(1) demand each publisher is asked for one value, no more")
  func honoursDemandOfOne() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.merge(with: second).record(initialDemand: .max(1))
    #expect(first.requested == .max(1))
    #expect(second.requested == .max(1))
    #expect(first.send(1))
    #expect(!first.send(2))  // asked for one only
    #expect(recorder.values == [1])
    #expect(first.requested == .max(1))
    #expect(second.requested == .max(1))
  }

  @Test("values beyond the demand wait and are delivered when more is requested")
  func buffersWithinGrantedDemand() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.merge(with: second).record(initialDemand: .max(1))
    first.send(1)
    second.send(2)  // second was asked for one value too: it waits
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    // The waiting value used the new demand: nobody is asked for more yet.
    #expect(first.requested == .max(1))
    #expect(second.requested == .max(1))
    recorder.request(.max(2))
    #expect(first.requested == .max(3))
    #expect(second.requested == .max(3))
  }

  @Test("the completion waits for the values still waiting for demand")
  func completionWaitsForBufferedValues() {
    let recorder = Just(1).merge(with: Just(2)).record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("no demand: nothing is requested and nothing delivered")
  func noDemand() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.merge(with: second).record(initialDemand: .none)
    #expect(first.requested == .none)
    #expect(second.requested == .none)
    #expect(!first.send(1))
    #expect(recorder.values.isEmpty)
  }

  @Test("unlimited demand asks every publisher for unlimited values once")
  func unlimitedDemand() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.merge(with: second).record()
    for value in 0..<10 { first.send(value) }
    #expect(recorder.values == Array(0..<10))
    #expect(first.requested == .unlimited)
    #expect(first.latest?.requests == 1)
  }

  @Test("demand returned from receive is granted to the publishers")
  func demandFromReceive() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.merge(with: second).record(
      initialDemand: .max(1), demandAfterEachValue: .max(1))
    for value in 0..<5 { #expect(first.send(value)) }
    #expect(recorder.values == [0, 1, 2, 3, 4])
    // Six units of demand in all; first delivered five and is owed one.
    #expect(first.requested == .max(6))
    #expect(second.requested == .max(1))
  }

  // MARK: Cancel

  @Test("cancel reaches every publisher and nothing is delivered afterwards")
  func cancelReachesEveryInput() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var cancelled: [String] = []
    let recorder = first.handleCancelForTest { cancelled.append("first") }
      .merge(with: second.handleCancelForTest { cancelled.append("second") })
      .record()
    first.send(1)
    recorder.cancel()
    first.send(2)
    second.send(3)
    second.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
    #expect(cancelled == ["first", "second"])
  }

  @Test("cancelled during subscription: the publishers are not subscribed")
  func cancelledDuringSubscription() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.cancel() }, receiveValue: { _ in .none },
      receiveCompletion: { _ in })
    first.merge(with: second).subscribe(subscriber)
    #expect(first.subscriptionCount == 0)
    #expect(second.subscriptionCount == 0)
  }

  @Test("a subscription that arrives after cancel is cancelled at once")
  func lateSubscriptionCancelled() {
    let late = LateSubscriptionPublisher<Int, Never>()
    let recorder = late.merge(with: Empty()).record()
    recorder.cancel()
    late.deliverSubscription()
    #expect(late.subscription?.isCancelled == true)
    #expect(late.subscription?.requested == Subscribers.Demand.none)
  }

  @Test("the pipeline is freed after completion")
  func freedAfterCompletion() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let probe = LeakProbe<Int, Never>()
    first.merge(with: second).subscribe(probe)
    first.send(completion: .finished)
    #expect(probe.subscriptionObject != nil)
    second.send(completion: .finished)
    #expect(probe.completion.isFinished)
    #expect(probe.subscriptionObject == nil)
  }

  @Test("the pipeline is freed after cancel")
  func freedAfterCancel() {
    weak var weakOwner: TestOwner?
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let probe = LeakProbe<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = first.merge(with: second).sink { owner.values.append($0) }
    }
    first.merge(with: second).subscribe(probe)
    first.send(1)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    probe.cancel()
    #expect(weakOwner == nil)
    #expect(probe.subscriptionObject == nil)
  }

  // MARK: Re-entrancy

  @Test("a value sent from inside receive is delivered after it returns, in order")
  func reentrantSend() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var log: [String] = []
    var depth = 0
    let cancellable = first.merge(with: second).sink { value in
      depth += 1
      defer { depth -= 1 }
      log.append("\(value)@\(depth)")
      if value == 1 {
        second.send(10)
        first.send(2)
      }
    }
    first.send(1)
    #expect(log == ["1@1", "10@1", "2@1"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("cancelling from inside receive stops delivery and cancels every publisher")
  func reentrantCancel() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    var cancellable: AnyCancellable?
    var received: [Int] = []
    cancellable = first.merge(with: second).sink { value in
      received.append(value)
      cancellable?.cancel()
    }
    first.send(1)
    #expect(!first.send(2))
    #expect(!second.send(3))
    #expect(received == [1])
    #expect(first.isCancelled)
    #expect(second.isCancelled)
  }

  @Test("requesting from inside receive delivers the waiting values iteratively")
  func reentrantRequest() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = TestSubscriber<Int, Never>(initialDemand: .max(1))
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { recorder.receive(subscription: $0) },
      receiveValue: { value in
        _ = recorder.receive(value)
        recorder.request(.max(1))
        return .none
      },
      receiveCompletion: { recorder.receive(completion: $0) })
    first.merge(with: second).subscribe(subscriber)
    for value in 0..<100 { #expect(first.send(value)) }
    #expect(recorder.values == Array(0..<100))
  }

  // MARK: Stress

  @Test("stress: two publishers sending from eight threads lose nothing and deliver serially")
  func stressTwoPublishers() async {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let subscriber = StressSubscriber<Int, Never>()
    first.merge(with: second).subscribe(subscriber)
    await concurrentPerform(8) { thread in
      let subject = thread.isMultiple(of: 2) ? first : second
      for value in 0..<500 { subject.send(thread * 1000 + value) }
    }
    first.send(completion: .finished)
    second.send(completion: .finished)
    let values = subscriber.values
    #expect(values.count == 4000)
    #expect(Set(values).count == 4000)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    for thread in 0..<8 {
      #expect(isIncreasing(values.filter { $0 / 1000 == thread }))
    }
  }
}
