import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("combineLatest")
struct CombineLatestTests {
  // MARK: Normal path

  @Test("emits only after every input has emitted")
  func emitsOnlyAfterEveryInput() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<String, Never>()
    let recorder = first.combineLatest(second).record()
    first.send(1)
    first.send(2)
    #expect(recorder.values.isEmpty)
    second.send("a")
    #expect(pairs(recorder.values) == [["2", "a"]])
  }

  @Test("each value of any input emits the latest value of every input")
  func emitsLatestTuples() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let recorder = first.combineLatest(second).record()
    first.send(1)
    first.send(2)
    second.send(2)
    first.send(3)
    first.send(45)
    second.send(22)
    #expect(pairs(recorder.values) == [["2", "2"], ["3", "2"], ["45", "2"], ["45", "22"]])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("with a transform, the closure combines the latest values")
  func transform() {
    let price = PassthroughSubject<Int, Never>()
    let quantity = PassthroughSubject<Int, Never>()
    let combined: Publishers.Map<Publishers.CombineLatest<IntSubject, IntSubject>, Int> =
      price.combineLatest(quantity) { $0 * $1 }
    let recorder = combined.record()
    price.send(3)
    quantity.send(2)
    quantity.send(5)
    #expect(recorder.values == [6, 15])
  }

  @Test("combineLatest of three and four publishers, with and without a transform")
  func threeAndFour() {
    let s = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    let three: Publishers.CombineLatest3 = s[0].combineLatest(s[1], s[2])
    let four: Publishers.CombineLatest4 = s[0].combineLatest(s[1], s[2], s[3])
    let threeSum:
      Publishers.Map<Publishers.CombineLatest3<IntSubject, IntSubject, IntSubject>, Int> =
        s[0].combineLatest(s[1], s[2]) { $0 + $1 + $2 }
    let fourSum:
      Publishers.Map<Publishers.CombineLatest4<IntSubject, IntSubject, IntSubject, IntSubject>, Int> =
        s[0].combineLatest(s[1], s[2], s[3]) { $0 * $1 * $2 * $3 }
    let threeRecorder = three.record()
    let fourRecorder = four.record()
    let threeSumRecorder = threeSum.record()
    let fourSumRecorder = fourSum.record()
    s[0].send(1)
    s[0].send(2)
    s[1].send(2)
    s[2].send(9)
    s[3].send(1)
    s[0].send(3)
    #expect(threeRecorder.values.map { [$0.0, $0.1, $0.2] } == [[2, 2, 9], [3, 2, 9]])
    #expect(
      fourRecorder.values.map { [$0.0, $0.1, $0.2, $0.3] } == [[2, 2, 9, 1], [3, 2, 9, 1]])
    #expect(threeSumRecorder.values == [13, 14])
    #expect(fourSumRecorder.values == [36, 54])
  }

  @Test("synchronous publishers: the first one's last value meets each of the second's")
  func synchronousPublishers() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher()
      .combineLatest([4, 5, 6].publisher.eraseToAnyPublisher())
      .record()
    #expect(pairs(recorder.values) == [["3", "4"], ["3", "5"], ["3", "6"]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("CombineLatest, CombineLatest3 and CombineLatest4 are Equatable when their publishers are")
  func equatable() {
    #expect(Just(1).combineLatest(Just("A")) == Publishers.CombineLatest(Just(1), Just("A")))
    #expect(Just(1).combineLatest(Just("A")) != Publishers.CombineLatest(Just(1), Just("B")))
    #expect(
      Just(1).combineLatest(Just(2), Just(3))
        == Publishers.CombineLatest3(Just(1), Just(2), Just(3)))
    #expect(
      Just(1).combineLatest(Just(2), Just(3), Just(4))
        != Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(5)))
  }

  // MARK: Completion

  @Test("finishes only once every input has finished, combining finished inputs' last values")
  func finishesAfterAll() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let recorder = first.combineLatest(second) { $0 + $1 }.record()
    first.send(100)
    second.send(1)
    first.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    second.send(2)
    second.send(3)
    #expect(recorder.receivedCompletion == nil)
    second.send(completion: .finished)
    #expect(recorder.values == [101, 102, 103])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
  }

  @Test(
    "an input that finishes without a value: nothing is emitted, and the result finishes with the others, as in Combine"
  )
  func inputFinishesEmpty() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var secondCancelled = false
    let recorder =
      first
      .combineLatest(second.handleEvents(receiveCancel: { secondCancelled = true }))
      .record()
    first.send(completion: .finished)
    second.send(1)
    second.send(2)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    #expect(!secondCancelled)
    second.send(completion: .finished)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("empty publishers finish at once")
  func emptyInputs() {
    let recorder = Empty<Int, Never>().combineLatest(Empty<Int, Never>()).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Failure

  @Test("a failure is delivered once and cancels the other inputs")
  func failureCancelsOthers() {
    let first = PassthroughSubject<Int, TestError>()
    let second = PassthroughSubject<Int, TestError>()
    let third = PassthroughSubject<Int, TestError>()
    var cancelled: [String] = []
    let recorder = first.handleEvents(receiveCancel: { cancelled.append("first") })
      .combineLatest(
        second.handleEvents(receiveCancel: { cancelled.append("second") }),
        third.handleEvents(receiveCancel: { cancelled.append("third") })
      )
      .record()
    first.send(1)
    second.send(2)
    third.send(3)
    second.send(completion: .failure(TestError(1)))
    first.send(4)
    third.send(completion: .failure(TestError(2)))
    #expect(recorder.values.count == 1)
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(recorder.completionCount == 1)
    #expect(cancelled == ["first", "third"])
  }

  @Test("after a synchronous failure of the first input, the others are not subscribed")
  func failureDuringSubscription() {
    let second = ManualPublisher<Int, TestError>()
    let recorder = Fail<Int, TestError>(error: TestError(5)).combineLatest(second).record()
    #expect(recorder.receivedCompletion?.failure == TestError(5))
    #expect(second.subscriptionCount == 0)
  }

  @Test("a failure sent from inside receive is delivered after it returns, once")
  func failureFromInsideReceive() {
    let first = PassthroughSubject<Int, TestError>()
    let second = PassthroughSubject<Int, TestError>()
    var log: [String] = []
    let cancellable = first.combineLatest(second).sink(
      receiveCompletion: { log.append("\($0)") },
      receiveValue: { value in
        log.append("value \(value.0) \(value.1)")
        second.send(completion: .failure(TestError(7)))
        log.append("returned")
      })
    first.send(1)
    second.send(2)
    #expect(log == ["value 1 2", "returned", "failure(TestError(7))"])
    withExtendedLifetime(cancellable) {}
  }

  // MARK: Demand

  @Test("with .max(1) demand each input is asked for one value, no more")
  func maxOneDemand() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.combineLatest(second).record(initialDemand: .max(1))
    #expect(first.requested == .max(1))
    #expect(second.requested == .max(1))
    #expect(first.send(1))
    #expect(second.send(2))
    #expect(!first.send(3))  // asked for one only
    #expect(pairs(recorder.values) == [["1", "2"]])
    #expect(first.requested == .max(1))
    #expect(second.requested == .max(1))
  }

  @Test("requests pass through to every input")
  func requestsPassThrough() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.combineLatest(second).record(initialDemand: .max(1))
    recorder.request(.max(2))
    #expect(first.requested == .max(3))
    #expect(second.requested == .max(3))
    #expect(first.latest?.requests == 2)
  }

  @Test(
    "a value that arrives without demand replaces the latest value and is not delivered later, as in Combine"
  )
  func noDemandReplacesLatest() {
    // Careless inputs, which send whatever the demand.
    let first = ScriptedUpstream<Int, Never>()
    let second = ScriptedUpstream<Int, Never>()
    let recorder = first.combineLatest(second).record(initialDemand: .max(1))
    first.send(1)
    second.send(10)  // uses the demand
    first.send(2)  // no demand: only replaces the latest value
    second.send(20)  // no demand either
    recorder.request(.max(1))
    #expect(pairs(recorder.values) == [["1", "10"]])  // nothing made up on request
    first.send(3)
    #expect(pairs(recorder.values) == [["1", "10"], ["3", "20"]])
  }

  @Test("no demand: nothing is requested and nothing delivered")
  func noDemand() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.combineLatest(second).record(initialDemand: .none)
    #expect(first.requested == .none)
    #expect(second.requested == .none)
    #expect(!first.send(1))
    #expect(recorder.values.isEmpty)
  }

  @Test("unlimited demand asks every input for unlimited values once")
  func unlimitedDemand() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.combineLatest(second).record(demandAfterEachValue: .max(1))
    for value in 0..<5 {
      first.send(value)
      second.send(value)
    }
    #expect(recorder.values.count == 9)
    #expect(first.requested == .unlimited)
    #expect(first.latest?.requests == 1)
    #expect(second.latest?.requests == 1)
  }

  @Test("demand returned from receive passes through to every input")
  func demandFromReceive() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.combineLatest(second).record(
      initialDemand: .max(1), demandAfterEachValue: .max(1))
    #expect(first.send(1))
    #expect(second.send(1))
    #expect(first.send(2))
    #expect(recorder.values.count == 2)
    #expect(first.requested == .max(3))
    #expect(second.requested == .max(3))
  }

  @Test("an input subscribed after demand was requested is asked for all of it")
  func lateInputGetsRequestedDemand() {
    let late = LateSubscriptionPublisher<Int, Never>()
    let other = ManualPublisher<Int, Never>()
    let recorder = late.combineLatest(other).record(initialDemand: .max(2))
    recorder.request(.max(3))
    late.deliverSubscription()
    #expect(late.subscription?.requested == .max(5))
    #expect(other.requested == .max(5))
  }

  // MARK: Cancel

  @Test("cancel reaches every input and nothing is delivered afterwards")
  func cancelReachesEveryInput() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var cancelled: [String] = []
    let recorder = first.handleEvents(receiveCancel: { cancelled.append("first") })
      .combineLatest(second.handleEvents(receiveCancel: { cancelled.append("second") }))
      .record()
    first.send(1)
    second.send(1)
    recorder.cancel()
    first.send(2)
    second.send(completion: .finished)
    #expect(recorder.values.count == 1)
    #expect(recorder.receivedCompletion == nil)
    #expect(cancelled == ["first", "second"])
  }

  @Test("cancelled during subscription: the inputs are not subscribed")
  func cancelledDuringSubscription() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let subscriber = AnySubscriber<(Int, Int), Never>(
      receiveSubscription: { $0.cancel() }, receiveValue: { _ in .none },
      receiveCompletion: { _ in })
    first.combineLatest(second).subscribe(subscriber)
    #expect(first.subscriptionCount == 0)
    #expect(second.subscriptionCount == 0)
  }

  @Test("a subscription that arrives after cancel is cancelled at once")
  func lateSubscriptionCancelled() {
    let late = LateSubscriptionPublisher<Int, Never>()
    let recorder = late.combineLatest(PassthroughSubject<Int, Never>()).record()
    recorder.cancel()
    late.deliverSubscription()
    #expect(late.subscription?.isCancelled == true)
    #expect(late.subscription?.requested == Subscribers.Demand.none)
  }

  @Test("the pipeline is freed after completion")
  func freedAfterCompletion() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let probe = LeakProbe<(Int, Int), Never>()
    first.combineLatest(second).subscribe(probe)
    first.send(1)
    second.send(2)
    first.send(completion: .finished)
    #expect(probe.subscriptionObject != nil)
    second.send(completion: .finished)
    #expect(probe.completion.isFinished)
    #expect(probe.subscriptionObject == nil)
  }

  @Test("the pipeline is freed after a failure")
  func freedAfterFailure() {
    let first = PassthroughSubject<Int, TestError>()
    let second = PassthroughSubject<Int, TestError>()
    let probe = LeakProbe<(Int, Int), TestError>()
    first.combineLatest(second).subscribe(probe)
    first.send(completion: .failure(TestError(1)))
    #expect(probe.completion?.failure == TestError(1))
    #expect(probe.subscriptionObject == nil)
  }

  @Test("the pipeline is freed after cancel")
  func freedAfterCancel() {
    weak var weakOwner: TestOwner?
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let probe = LeakProbe<(Int, Int), Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = first.combineLatest(second).sink { owner.values.append($0.0 + $0.1) }
    }
    first.combineLatest(second).subscribe(probe)
    first.send(1)
    second.send(2)
    #expect(weakOwner?.values == [3])
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
    let cancellable = first.combineLatest(second).sink { value in
      depth += 1
      defer { depth -= 1 }
      log.append("\(value.0),\(value.1)@\(depth)")
      if value == (1, 1) {
        second.send(2)
        first.send(3)
      }
    }
    first.send(1)
    second.send(1)
    #expect(log == ["1,1@1", "1,2@1", "3,2@1"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("cancelling from inside receive stops delivery and cancels every input")
  func reentrantCancel() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    var cancellable: AnyCancellable?
    var received: [Int] = []
    cancellable = first.combineLatest(second).sink { value in
      received.append(value.0)
      cancellable?.cancel()
    }
    first.send(1)
    second.send(1)
    #expect(!first.send(2))
    #expect(received == [1])
    #expect(first.isCancelled)
    #expect(second.isCancelled)
  }

  @Test("requesting from inside receive lets the next value through")
  func reentrantRequest() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = TestSubscriber<(Int, Int), Never>(initialDemand: .max(1))
    let subscriber = AnySubscriber<(Int, Int), Never>(
      receiveSubscription: { recorder.receive(subscription: $0) },
      receiveValue: { value in
        _ = recorder.receive(value)
        recorder.request(.max(1))
        return .none
      },
      receiveCompletion: { recorder.receive(completion: $0) })
    first.combineLatest(second).subscribe(subscriber)
    #expect(second.send(0))
    for value in 0..<100 { #expect(first.send(value)) }
    #expect(recorder.values.map(\.0) == Array(0..<100))
  }

  // MARK: Stress

  @Test(
    "stress: eight threads sending into two inputs: serial delivery, every value combined, one completion"
  )
  func stressTwoInputs() async {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let subscriber = OrderedStressSubscriber<[Int], Never>()
    first.combineLatest(second).map { [$0.0, $0.1] }.subscribe(subscriber)
    first.send(-1)
    second.send(-1)
    await runOnThreads(8) { thread in
      let subject = thread.isMultiple(of: 2) ? first : second
      for value in 0..<300 { subject.send(thread * 1000 + value) }
    }
    first.send(completion: .finished)
    second.send(completion: .finished)
    let values = subscriber.values
    // One tuple for the first pair, then one per value: nothing lost.
    #expect(values.count == 1 + 2400)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    #expect(!subscriber.valueAfterCompletion)
    // Every value sent appears in a tuple, and each thread's values appear in order.
    for thread in 0..<8 {
      let component = thread.isMultiple(of: 2) ? 0 : 1
      let seen = values.map { $0[component] }.filter { $0 / 1000 == thread && $0 >= 0 }
      #expect(Set(seen).count == 300)
      #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 })
    }
  }

  @Test(
    "stress: with one value of demand at a time, eight threads never get an input asked for more than the downstream"
  )
  func stressBoundedDemand() async {
    let inputs = (0..<4).map { _ in ManualPublisher<Int, Never>() }
    let subscriber = OrderedStressSubscriber<[Int], Never>(
      initialDemand: .max(1), demandPerValue: .max(1))
    inputs[0].combineLatest(inputs[1], inputs[2], inputs[3])
      .map { [$0.0, $0.1, $0.2, $0.3] }
      .subscribe(subscriber)
    await runOnThreads(8) { thread in
      let input = inputs[thread % 4]
      for value in 0..<100 { input.sendWhenDemanded(thread * 1000 + value) }
    }
    let emitted = subscriber.values.count
    // The downstream asked for one value, then one more per value it received; every input
    // was asked for exactly that, never more.
    #expect(emitted > 0)
    for input in inputs {
      #expect(input.requested == .max(1 + emitted))
    }
    #expect(subscriber.overlaps == 0)
  }

  @Test("stress: a failure racing with values from eight threads is delivered once, last")
  func stressFailure() async {
    let inputs = (0..<4).map { _ in PassthroughSubject<Int, TestError>() }
    let subscriber = OrderedStressSubscriber<Int, TestError>()
    inputs[0].combineLatest(inputs[1], inputs[2], inputs[3]) { $0 + $1 + $2 + $3 }
      .subscribe(subscriber)
    for input in inputs { input.send(0) }
    await runOnThreads(8) { thread in
      let input = inputs[thread % 4]
      for value in 0..<200 {
        if thread == 7, value == 100 { input.send(completion: .failure(TestError(thread))) }
        input.send(value)
      }
    }
    #expect(subscriber.completions == 1)
    #expect(!subscriber.valueAfterCompletion)
    #expect(subscriber.overlaps == 0)
  }

  @Test("stress: cancelling while eight threads send stops delivery and cancels every input")
  func stressCancel() async {
    let inputs = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
    let cancels = Counter()
    let delivered = Counter()
    let cancellable = inputs[0].handleEvents(receiveCancel: { cancels.increment() })
      .combineLatest(inputs[1].handleEvents(receiveCancel: { cancels.increment() }))
      .sink { _ in delivered.increment() }
    await runOnThreads(8) { thread in
      for value in 0..<300 {
        if thread == 0, value == 150 { cancellable.cancel() }
        inputs[thread % 2].send(value)
      }
    }
    let afterCancel = delivered.value
    inputs[0].send(1)
    inputs[1].send(1)
    #expect(delivered.value == afterCancel)
    #expect(cancels.value == 2)
  }
}
