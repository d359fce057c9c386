import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("zip")
struct ZipTests {
  // MARK: Normal path

  @Test("pairs the n-th values of both publishers, in order")
  func pairsInOrder() {
    let letters = PassthroughSubject<String, Never>()
    let numbers = PassthroughSubject<Int, Never>()
    let recorder = letters.zip(numbers).record()
    letters.send("a")
    letters.send("b")
    letters.send("c")
    #expect(recorder.values.isEmpty)
    numbers.send(1)
    numbers.send(2)
    #expect(pairs(recorder.values) == [["a", "1"], ["b", "2"]])
    numbers.send(3)
    numbers.send(4)  // waits for a fourth letter
    #expect(pairs(recorder.values) == [["a", "1"], ["b", "2"], ["c", "3"]])
    letters.send("d")
    #expect(pairs(recorder.values).last == ["d", "4"])
  }

  @Test("with a transform, the closure combines each pair")
  func transform() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let zipped: Publishers.Map<Publishers.Zip<IntSubject, IntSubject>, Int> =
      first.zip(second) { $0 * 10 + $1 }
    let recorder = zipped.record()
    first.send(1)
    first.send(2)
    second.send(3)
    second.send(4)
    #expect(recorder.values == [13, 24])
  }

  @Test("zip of three and four publishers, with and without a transform")
  func threeAndFour() {
    let s = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    let three: Publishers.Zip3 = s[0].zip(s[1], s[2])
    let four: Publishers.Zip4 = s[0].zip(s[1], s[2], s[3])
    let threeSum: Publishers.Map<Publishers.Zip3<IntSubject, IntSubject, IntSubject>, Int> = s[0]
      .zip(s[1], s[2]) {
        $0 + $1 + $2
      }
    let fourSum:
      Publishers.Map<Publishers.Zip4<IntSubject, IntSubject, IntSubject, IntSubject>, Int> = s[0]
        .zip(s[1], s[2], s[3]) {
          $0 + $1 + $2 + $3
        }
    let recorders = (three.record(), four.record(), threeSum.record(), fourSum.record())
    for (index, subject) in s.enumerated() {
      subject.send(index)
      subject.send(index * 10)
    }
    #expect(recorders.0.values.map { [$0.0, $0.1, $0.2] } == [[0, 1, 2], [0, 10, 20]])
    #expect(
      recorders.1.values.map { [$0.0, $0.1, $0.2, $0.3] } == [[0, 1, 2, 3], [0, 10, 20, 30]])
    #expect(recorders.2.values == [3, 30])
    #expect(recorders.3.values == [6, 60])
  }

  @Test("synchronous publishers: pairs until the shorter one runs out, then finishes")
  func synchronousPublishers() {
    var longerCancelled = false
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher()
      .zip(
        [4, 5, 6, 7].publisher.eraseToAnyPublisher()
          .handleEvents(receiveCancel: { longerCancelled = true })
      )
      .record()
    #expect(pairs(recorder.values) == [["1", "4"], ["2", "5"], ["3", "6"]])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(longerCancelled)
  }

  @Test("Zip, Zip3 and Zip4 are Equatable when their publishers are")
  func equatable() {
    #expect(Just(1).zip(Just("A")) == Publishers.Zip(Just(1), Just("A")))
    #expect(Just(1).zip(Just("A")) != Publishers.Zip(Just(1), Just("B")))
    #expect(Just(1).zip(Just(2), Just(3)) == Publishers.Zip3(Just(1), Just(2), Just(3)))
    #expect(
      Just(1).zip(Just(2), Just(3), Just(4)) != Publishers.Zip4(Just(1), Just(2), Just(3), Just(5)))
  }

  // MARK: Completion

  @Test("an input that finishes with nothing waiting finishes the zip and cancels the others")
  func finishesWhenAnInputRunsOut() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var secondCancelled = false
    let recorder = first.zip(second.handleEvents(receiveCancel: { secondCancelled = true }))
      .record()
    second.send(1)  // waits: first has no value to pair it with
    first.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
    #expect(secondCancelled)
  }

  @Test("an input that finishes with values waiting ends the zip once they are paired")
  func finishesWhenWaitingValuesAreUsed() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var secondCancelled = false
    let recorder = first.zip(second.handleEvents(receiveCancel: { secondCancelled = true })) {
      $0 + $1
    }
    .record()
    first.send(100)
    first.send(200)
    first.send(300)
    second.send(1)
    first.send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    second.send(2)
    #expect(recorder.receivedCompletion == nil)
    second.send(3)
    #expect(recorder.values == [101, 202, 303])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
    #expect(secondCancelled)
  }

  @Test("pairs beyond the demand (from a careless input) wait, and the completion waits for them")
  func completionWaitsForDemand() {
    let first = ScriptedUpstream<Int, Never>()
    let second = ScriptedUpstream<Int, Never>()
    let recorder = first.zip(second).record(initialDemand: .max(1))
    first.send(1)
    first.send(2)
    first.send(completion: .finished)
    second.send(10)
    second.send(20)  // beyond the demand: the pair waits
    #expect(pairs(recorder.values) == [["1", "10"]])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(pairs(recorder.values) == [["1", "10"], ["2", "20"]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  // MARK: Failure

  @Test("a failure is delivered once, drops waiting values and cancels the other inputs")
  func failureCancelsOthers() {
    let first = PassthroughSubject<Int, TestError>()
    let second = PassthroughSubject<Int, TestError>()
    let third = PassthroughSubject<Int, TestError>()
    var cancelled: [String] = []
    let recorder = first.handleEvents(receiveCancel: { cancelled.append("first") })
      .zip(
        second.handleEvents(receiveCancel: { cancelled.append("second") }),
        third.handleEvents(receiveCancel: { cancelled.append("third") })
      )
      .record()
    first.send(1)
    second.send(2)
    third.send(completion: .failure(TestError(1)))
    first.send(3)
    second.send(completion: .failure(TestError(2)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(recorder.completionCount == 1)
    #expect(cancelled == ["first", "second"])
  }

  @Test("after a synchronous failure of the first input, the others are not subscribed")
  func failureDuringSubscription() {
    let second = ManualPublisher<Int, TestError>()
    let recorder = Fail<Int, TestError>(error: TestError(5)).zip(second).record()
    #expect(recorder.receivedCompletion?.failure == TestError(5))
    #expect(second.subscriptionCount == 0)
  }

  // MARK: Demand

  @Test("with .max(1) demand each input is asked for one value, and values wait for demand")
  func maxOneDemand() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.zip(second).record(initialDemand: .max(1))
    #expect(first.requested == .max(1))
    #expect(second.requested == .max(1))
    #expect(first.send(1))
    #expect(!first.send(2))  // asked for one only
    #expect(second.send(10))
    #expect(pairs(recorder.values) == [["1", "10"]])
    recorder.request(.max(1))
    #expect(first.requested == .max(2))
    #expect(second.requested == .max(2))
  }

  @Test("no input is asked for more than the downstream asked for")
  func neverAsksMoreThanNeeded() {
    let inputs = (0..<3).map { _ in ManualPublisher<Int, Never>() }
    let recorder = inputs[0].zip(inputs[1], inputs[2]).record(initialDemand: .max(2))
    #expect(inputs[0].send(1))
    #expect(inputs[0].send(2))
    #expect(!inputs[0].send(3))
    #expect(inputs[1].send(1))
    recorder.request(.max(3))
    for input in inputs { #expect(input.requested == .max(5)) }
    #expect(inputs[2].send(1))
    #expect(recorder.values.count == 1)
  }

  @Test("after unlimited demand, later requests still reach every input, as in Combine")
  func unlimitedDemand() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.zip(second).record()
    #expect(first.latest?.requests == 1)
    recorder.request(.max(2))
    #expect(first.latest?.requests == 2)
    #expect(second.latest?.requests == 2)
    for value in 0..<5 {
      first.send(value)
      second.send(value)
    }
    #expect(recorder.values.count == 5)
    #expect(second.requested == .unlimited)
  }

  @Test(
    "demand asked for while a pair is delivered is returned to the input that completed it, and requested from the others, as in Combine"
  )
  func demandDuringDelivery() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    var subscription: (any Subscription)?
    let subscriber = AnySubscriber<(Int, Int), Never>(
      receiveSubscription: {
        subscription = $0
        $0.request(.max(1))
      },
      receiveValue: { _ in
        subscription?.request(.max(3))
        return .max(2)
      },
      receiveCompletion: { _ in })
    first.zip(second).subscribe(subscriber)
    #expect(first.send(1))
    #expect(second.send(1))  // completes the pair: gets 3 + 2 back through its return
    #expect(first.latest?.requests == 3)  // 1, then 3, then 2
    #expect(second.latest?.requests == 1)
    #expect(first.requested == .max(6))
    #expect(second.requested == .max(6))
  }

  @Test("a failure cancels the input that failed too, as in Combine")
  func failureCancelsFailedInput() {
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, TestError>()
    let recorder = first.zip(second).record()
    first.send(completion: .failure(TestError(1)))
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(first.isCancelled)
    #expect(second.isCancelled)
  }

  @Test("demand returned from receive passes through to every input")
  func demandFromReceive() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = first.zip(second).record(initialDemand: .max(1), demandAfterEachValue: .max(1))
    for value in 0..<3 {
      #expect(first.send(value))
      #expect(second.send(value))
    }
    #expect(recorder.values.count == 3)
    #expect(first.requested == .max(4))
    #expect(second.requested == .max(4))
  }

  @Test("a request of zero stops the program, as in Combine (zip)")
  func zeroRequestStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      PassthroughSubject<Int, Never>().zip(PassthroughSubject<Int, Never>())
        .record(initialDemand: .none).request(.none)
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("CombineEx API violation: Zip was asked for zero values") == true)
  }

  @Test("a request of zero stops the program from inside receive(subscription:) (zip of four)")
  func zeroRequestInSubscriptionStops() async {
    await #expect(processExitsWith: .failure) {
      let inputs = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
      let subscriber = AnySubscriber<(Int, Int, Int, Int), Never>(
        receiveSubscription: { $0.request(.none) }, receiveValue: { _ in .none },
        receiveCompletion: { _ in })
      inputs[0].zip(inputs[1], inputs[2], inputs[3]).subscribe(subscriber)
    }
  }

  // MARK: Cancel

  @Test("cancel reaches every input, drops waiting values, and nothing is delivered afterwards")
  func cancelReachesEveryInput() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var cancelled: [String] = []
    let recorder = first.handleEvents(receiveCancel: { cancelled.append("first") })
      .zip(second.handleEvents(receiveCancel: { cancelled.append("second") }))
      .record()
    first.send(1)
    recorder.cancel()
    second.send(2)
    first.send(completion: .finished)
    #expect(recorder.values.isEmpty)
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
    first.zip(second).subscribe(subscriber)
    #expect(first.subscriptionCount == 0)
    #expect(second.subscriptionCount == 0)
  }

  @Test("the pipeline is freed after completion")
  func freedAfterCompletion() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let probe = LeakProbe<(Int, Int), Never>()
    first.zip(second).subscribe(probe)
    first.send(1)
    second.send(2)
    second.send(3)
    first.send(completion: .finished)
    #expect(probe.completion.isFinished)
    #expect(probe.subscriptionObject == nil)
  }

  @Test("the pipeline is freed after cancel, waiting values included")
  func freedAfterCancel() {
    weak var weakOwner: TestOwner?
    weak var weakWaiting: TestOwner?
    let first = PassthroughSubject<TestOwner, Never>()
    let second = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = first.zip(second).sink { owner.values.append($0.1) }
      let waiting = TestOwner()
      weakWaiting = waiting
      first.send(waiting)
    }
    #expect(weakWaiting != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    #expect(weakWaiting == nil)
  }

  // MARK: Re-entrancy

  @Test("values sent from inside receive are paired after it returns, in order")
  func reentrantSend() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var log: [String] = []
    var depth = 0
    let cancellable = first.zip(second).sink { value in
      depth += 1
      defer { depth -= 1 }
      log.append("\(value.0),\(value.1)@\(depth)")
      if value.0 == 1 {
        first.send(2)
        second.send(20)
        first.send(3)
        second.send(30)
      }
    }
    first.send(1)
    second.send(10)
    #expect(log == ["1,10@1", "2,20@1", "3,30@1"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("cancelling from inside receive stops delivery and cancels every input")
  func reentrantCancel() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    var cancellable: AnyCancellable?
    var received: [Int] = []
    cancellable = first.zip(second).sink { value in
      received.append(value.0)
      cancellable?.cancel()
    }
    first.send(1)
    first.send(2)
    second.send(1)
    #expect(!second.send(2))
    #expect(received == [1])
    #expect(first.isCancelled)
    #expect(second.isCancelled)
  }

  // MARK: Stress

  @Test(
    "stress: eight threads sending into two inputs: every pair, in order, serially, one completion")
  func stressEveryPair() async {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let subscriber = OrderedStressSubscriber<[Int], Never>()
    first.zip(second).map { [$0.0, $0.1] }.subscribe(subscriber)
    await runOnThreads(8) { thread in
      let subject = thread.isMultiple(of: 2) ? first : second
      for value in 0..<500 { subject.send(thread * 1000 + value) }
    }
    first.send(completion: .finished)
    let values = subscriber.values
    #expect(values.count == 2000)
    #expect(Set(values.map { $0[0] }).count == 2000)
    #expect(Set(values.map { $0[1] }).count == 2000)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    #expect(!subscriber.valueAfterCompletion)
    for thread in 0..<8 {
      let component = thread.isMultiple(of: 2) ? 0 : 1
      #expect(isIncreasing(values.map { $0[component] }.filter { $0 / 1000 == thread }))
    }
  }

  @Test(
    "stress: with one value of demand at a time, eight threads lose no pair and no input is asked for more than the downstream"
  )
  func stressBoundedDemand() async {
    let inputs = (0..<4).map { _ in ManualPublisher<Int, Never>() }
    let subscriber = OrderedStressSubscriber<[Int], Never>(
      initialDemand: .max(1), demandPerValue: .max(1))
    inputs[0].zip(inputs[1], inputs[2], inputs[3])
      .map { [$0.0, $0.1, $0.2, $0.3] }
      .subscribe(subscriber)
    await runOnThreads(8) { thread in
      let input = inputs[thread % 4]
      for value in 0..<100 { input.sendWhenDemanded(thread * 1000 + value) }
    }
    let values = subscriber.values
    #expect(values.count == 200)
    for component in 0..<4 {
      #expect(Set(values.map { $0[component] }).count == 200)
    }
    for input in inputs { #expect(input.requested == .max(201)) }
    #expect(subscriber.overlaps == 0)
  }

  @Test("stress: a completion racing with values from eight threads is delivered once, last")
  func stressCompletion() async {
    let inputs = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
    let subscriber = OrderedStressSubscriber<Int, Never>()
    inputs[0].zip(inputs[1]) { $0 + $1 }.subscribe(subscriber)
    await runOnThreads(8) { thread in
      for value in 0..<300 {
        if thread == 3, value == 150 { inputs[1].send(completion: .finished) }
        inputs[thread % 2].send(value)
      }
    }
    #expect(subscriber.completions == 1)
    #expect(!subscriber.valueAfterCompletion)
    #expect(subscriber.overlaps == 0)
  }
}
