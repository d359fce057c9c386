import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("Marble publishers and expectations")
struct MarblePublisherTests {
  struct Failure: Error, Equatable {}

  @Test("a hot publisher sends each event at its tick")
  func hotPublisherPlaysDiagram() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("-a-b-|", values: ["a": 1, "b": 2])
    let recorder = input.record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    scheduler.advance(by: .seconds(4))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a hot publisher sends # as its failure")
  func hotPublisherFails() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("-a#", values: ["a": 1], failure: Failure())
    let recorder = input.record()
    scheduler.advance(by: .seconds(3))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(Failure()))
  }

  @Test("a hot publisher is hot: a late subscriber misses earlier events")
  func hotPublisherIsHot() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("a-b-c")
    scheduler.advance(by: .seconds(1))
    let late = input.record()
    scheduler.advance(by: .seconds(5))
    #expect(late.values == ["b", "c"])
  }

  @Test("a hot publisher with ^ delivers only the events after it, timed from it")
  func hotPublisherSubscriptionPoint() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let input = scheduler.hotPublisher("a-b-^-c-d-|")
    let recorder = input.record(scheduler: scheduler)
    scheduler.advance(by: .seconds(10))
    let timed = recorder.timedEvents(as: DispatchQueue.SchedulerTimeType.self)
    #expect(
      timed.map(\.event) == [.subscription, .value("c"), .value("d"), .completion(.finished)])
    #expect(
      timed.map { start.distance(to: $0.time) } == [.zero, .seconds(1), .seconds(3), .seconds(5)])
  }

  @Test("an event right after ^ happens at tick 0, the moment the hot publisher is made")
  func hotPublisherEventAtSubscriptionPoint() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("ab^c-d")
    let recorder = input.record()
    scheduler.advance(by: .zero)
    #expect(recorder.values == ["c"])
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values == ["c", "d"])
  }

  @Test("an expected diagram lines up with the input's: '-' before its ^ is ignored")
  func expectationWithSubscriptionPoint() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("a-b-^-c-d-|")
    scheduler.expect(input, toProduce: "----^-c-d-|")
    let later = scheduler.hotPublisher("a-b-^-c-d-|")
    scheduler.expect(later.map { $0.uppercased() }, toProduce: "^-C-D-|")
  }

  @Test("an expected diagram with an event before ^ records a malformed-diagram issue")
  func expectationWithEventBeforeSubscriptionPoint() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("a-b-^-c-d-|")
    withKnownIssue {
      scheduler.expect(input, toProduce: "a-b-^-c-d-|")
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("an event before the subscription point '^'")
        && text.contains("at column 1")
    }
  }

  @Test("expect(_:toProduce:) reports a mismatch at the caller's line")
  func expectationReportsAtCallersLine() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("-a-|")
    var line = 0
    let recorded = issues {
      line = #line + 1
      scheduler.expect(input, toProduce: "-b-|")
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(recorded.first?.sourceLocation?.fileID == #fileID)
  }

  @Test("a hot publisher reports a missing value at the caller's line")
  func hotPublisherReportsAtCallersLine() {
    let scheduler = DispatchQueue.test
    var line = 0
    let recorded = issues {
      line = #line + 1
      _ = scheduler.hotPublisher("-a", values: ["b": 1])
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(recorded.first?.sourceLocation?.fileID == #fileID)
  }

  @Test("expect(_:toProduce:) passes when the events match tick by tick")
  func expectationPasses() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("-a-b-c-|", values: ["a": 1, "b": 2, "c": 3])
    scheduler.expect(
      input.map { $0 * 10 }, toProduce: "-x-y-z-|", values: ["x": 10, "y": 20, "z": 30])
  }

  @Test("expect(_:toProduce:) checks a time operator without sleeping")
  func expectationWithDelay() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("ab-|")
    scheduler.expect(input.delay(for: .seconds(2), scheduler: scheduler), toProduce: "--ab-|")
  }

  @Test("a debounced burst produces only its last value, after the pause")
  func debounceDiagram() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("-a-b-c---|")
    scheduler.expect(
      input.debounce(for: .seconds(2), scheduler: scheduler), toProduce: "-------c-|")
  }

  @Test("an event at the very end of the expected diagram belongs to the next tick")
  func eventAtTheEnd() {
    let scheduler = DispatchQueue.test
    // b happens at tick 3, the moment the 3-tick diagram ends: it is not compared.
    let input = scheduler.hotPublisher("-a-b")
    scheduler.expect(input, toProduce: "-a-")
  }

  @Test("a timer's ticks match a diagram of the same length")
  func timerTicks() {
    let scheduler = DispatchQueue.test
    let timer = scheduler.ticker(every: .seconds(1)).autoconnect().map { _ in "t" }
    scheduler.expect(timer, toProduce: "-ttt")
  }

  @Test("expect(_:toProduce:) records an issue showing both diagrams when events differ")
  func expectationFailsWithBothDiagrams() {
    let scheduler = DispatchQueue.test
    let input = scheduler.hotPublisher("-a-b-|")
    withKnownIssue {
      scheduler.expect(input.filter { $0 == "a" }, toProduce: "-a-b-|")
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("expected: -a-b-|") && text.contains("actual:   -a---|")
    }
  }

  @Test("a malformed expected diagram records an issue pointing at the character")
  func malformedExpectation() {
    let scheduler = DispatchQueue.test
    withKnownIssue {
      scheduler.expect(Empty<String, Never>(), toProduce: "-a-)")
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("at column 4")
    }
  }

  @Test("a malformed input diagram records an issue and sends nothing")
  func malformedInput() {
    let scheduler = DispatchQueue.test
    withKnownIssue {
      let input = scheduler.hotPublisher("-(a")
      let recorder = input.record()
      scheduler.advance(by: .seconds(5))
      #expect(recorder.values.isEmpty)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("'(' is never closed")
    }
  }

  @Test("a value missing from values, or # without a failure, records an issue")
  func missingValues() {
    let scheduler = DispatchQueue.test
    withKnownIssue {
      _ = scheduler.hotPublisher("-a-b", values: ["a": 1])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("'b'")
    }
    withKnownIssue {
      _ = scheduler.hotPublisher("-#", values: ["a": 1])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("no `failure`")
    }
  }
}
