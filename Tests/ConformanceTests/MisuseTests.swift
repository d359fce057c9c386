import CombineEx
import CombineExTesting
import Foundation
import Testing

/// Misuse of the API: each gives its documented outcome — a stop with a
/// `CombineEx API violation:` message, or a silent no-op where Combine is silent — and never
/// corrupts other subscribers.
@Suite("misuse")
struct MisuseTests {
  // MARK: Stops with a message

  @Test("a negative demand stops the program with a message naming Subscribers.Demand.max(-1)")
  func negativeDemandStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subscribers.Demand.max(-1)
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("CombineEx API violation: Subscribers.Demand.max(-1)") == true)
  }

  @Test("a negative demand requested through a subscription stops the program")
  func negativeDemandThroughASubscriptionStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let recorder = PassthroughSubject<Int, Never>().record(initialDemand: .none)
      recorder.request(.max(-3))
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("Subscribers.Demand.max(-3): demand cannot be negative") == true)
  }

  @Test("multiplying a demand by a negative number stops the program")
  func negativeDemandMultiplicationStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subscribers.Demand.max(2) * -1
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("CombineEx API violation: Subscribers.Demand * -1") == true)
  }

  @Test("collect(0) stops the program with a message naming it")
  func collectZeroStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Just(1).collect(0)
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("CombineEx API violation: collect(0)") == true)
  }

  @Test("dropFirst with a negative count stops the program when subscribed")
  func negativeDropFirstStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = PassthroughSubject<Int, Never>().dropFirst(-1).sink { _ in }
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("CombineEx API violation: dropFirst(-1)") == true)
  }

  @Test("output(in:) with a range below zero stops the program")
  func negativeOutputRangeStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Publishers.Output(upstream: Just(1), range: -1..<2)
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("CombineEx API violation: Publishers.Output") == true)
  }

  @Test("assertNoFailure stops the program on a failure, with its prefix and the error")
  func assertNoFailureStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Fail<Int, ConformanceError>(error: ConformanceError(7)).assertNoFailure("loading")
        .sink { _ in }
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("loading: E7") == true)
  }

  // MARK: Silent no-ops

  @Test("a second subscription to a Sink is cancelled, and the first keeps delivering")
  func sinkSecondSubscriptionIsCancelled() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in }, receiveValue: { received.append($0) })
    subject.subscribe(sink)
    let second = ExtraSubscription()
    sink.receive(subscription: second)
    subject.send(1)
    #expect(second.wasCancelled)
    #expect(received == [1])
    sink.cancel()
  }

  @Test("a Sink subscribed to two publishers takes values from the first only")
  func sinkSubscribedTwiceKeepsTheFirst() {
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in }, receiveValue: { received.append($0) })
    first.subscribe(sink)
    second.subscribe(sink)
    second.send(20)
    first.send(10)
    #expect(received == [10])
    sink.cancel()
  }

  @Test("a Sink reused after its completion cancels the new subscription and calls nothing")
  func sinkReusedAfterCompletion() {
    var values: [Int] = []
    var completions = 0
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in completions += 1 }, receiveValue: { values.append($0) })
    Just(1).subscribe(sink)
    let later = ExtraSubscription()
    sink.receive(subscription: later)
    [2, 3].publisher.subscribe(sink)
    #expect(later.wasCancelled)
    #expect(values == [1])
    #expect(completions == 1)
  }

  @Test("a Sink reused after cancel cancels the new subscription")
  func sinkReusedAfterCancel() {
    var values: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in }, receiveValue: { values.append($0) })
    let subject = PassthroughSubject<Int, Never>()
    subject.subscribe(sink)
    sink.cancel()
    let later = ExtraSubscription()
    sink.receive(subscription: later)
    subject.send(1)
    #expect(later.wasCancelled)
    #expect(values.isEmpty)
  }

  @Test("an Assign given a second subscription cancels it")
  func assignSecondSubscriptionIsCancelled() {
    final class Target { var value = 0 }
    let target = Target()
    let subject = PassthroughSubject<Int, Never>()
    let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
    subject.subscribe(assign)
    let second = ExtraSubscription()
    assign.receive(subscription: second)
    subject.send(4)
    #expect(second.wasCancelled)
    #expect(target.value == 4)
    assign.cancel()
  }

  @Test("sending after completion is ignored, and other subscribers are not disturbed")
  func sendingAfterCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    let first = subject.record()
    let second = subject.record()
    subject.send(1)
    subject.send(completion: .finished)
    subject.send(2)
    subject.send(completion: .finished)
    let late = subject.record()
    #expect(first.values == [1] && second.values == [1])
    #expect(first.completionCount == 1 && second.completionCount == 1)
    #expect(late.values.isEmpty && late.completionCount == 1)
  }

  @Test("a CurrentValueSubject ignores sends after completion; setting value stores it")
  func currentValueSubjectAfterCompletion() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = subject.record()
    subject.send(completion: .finished)
    subject.send(2)
    #expect(subject.value == 1)
    subject.value = 3  // As in Combine: stored, not sent.
    #expect(subject.value == 3)
    #expect(recorder.values == [1])
    #expect(recorder.completionCount == 1)
  }

  @Test("request after cancel and a second cancel are no-ops, on subjects and sequences alike")
  func requestAfterCancelAndCancelTwice() {
    let subject = PassthroughSubject<Int, Never>()
    let misused = subject.record(initialDemand: .max(1))
    let bystander = subject.record()
    misused.cancel()
    misused.request(.unlimited)
    misused.cancel()
    subject.send(1)
    subject.send(2)
    #expect(misused.values.isEmpty)
    #expect(bystander.values == [1, 2])
    bystander.cancel()

    let sequence = [1, 2, 3].publisher.record(initialDemand: .max(1))
    sequence.cancel()
    sequence.request(.unlimited)
    sequence.cancel()
    #expect(sequence.values == [1])
    #expect(sequence.completionCount == 0)
  }

  @Test(
    "every registered publisher ignores requests and cancels made after its end",
    arguments: Registry.cases)
  func requestAndCancelAfterTheEnd(_ testCase: ConformanceCase) async {
    let problems = await ConformanceChecks.runGuarded(testCase) {
      (1...40).flatMap { index -> [String] in
        var scenario = Scenario.random(seed: 20_000 + UInt64(index))
        scenario.behaviour.misusesAfterEnd = true
        scenario.behaviour.cancelsTwice = true
        if index.isMultiple(of: 2) { scenario.steps.insert(.cancel, at: scenario.steps.count - 1) }
        scenario.steps += [.request(.unlimited), .pump]
        return ConformanceChecks.describe(testCase.run(scenario).violations, in: scenario)
      }
    }
    #expect(problems.isEmpty, "\(testCase.name):\n\(problems.joined(separator: "\n"))")
  }

  @Test(
    "a subscriber misusing its subscription does not disturb the other subscribers of a subject")
  func misuseDoesNotCorruptOtherSubscribers() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let bystanders = (0..<3).map { _ in subject.record() }
    for _ in 0..<5 {
      let misused = subject.record(initialDemand: .max(1))
      misused.cancel()
      misused.cancel()
      misused.request(.max(2))
    }
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    subject.subscribe(sink)
    subject.subscribe(sink)  // the second subscription is cancelled
    sink.cancel()
    sink.cancel()
    for value in 1...3 { subject.send(value) }
    subject.send(completion: .finished)
    for bystander in bystanders {
      #expect(bystander.values == [0, 1, 2, 3])
      #expect(bystander.completionCount == 1)
    }
  }
}
