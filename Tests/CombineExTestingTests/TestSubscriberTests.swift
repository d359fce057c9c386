import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("TestSubscriber")
struct TestSubscriberTests {
  @Test("records values and the completion in order")
  func recordsEvents() {
    let recorder = [1, 2].publisher.record()
    #expect(recorder.events == [.subscription, .value(1), .value(2), .completion(.finished)])
  }

  @Test("requests only the initial demand until the test asks for more")
  func demandUnderControl() {
    let recorder = [1, 2, 3].publisher.record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("next() waits for a value sent from another thread")
  func nextWaitsForValue() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    Task.detached { subject.send(7) }
    #expect(await recorder.next() == 7)
  }

  @Test("next() records an issue instead of hanging when no value arrives")
  func nextTimesOut() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record()
    await withKnownIssue {
      let value = await recorder.next(timeout: .milliseconds(50))
      #expect(value == nil)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("Timed out")
    }
  }
}

@Suite("TestSubscriber with a scheduler")
struct TimedTestSubscriberTests {
  @Test("records the scheduler's time at each event")
  func recordsTimes() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let recorder = [1, 2].publisher.eraseToAnyPublisher()
      .delay(for: .seconds(2), scheduler: scheduler)
      .record(scheduler: scheduler)
    scheduler.advance(by: .seconds(2))
    let timed = recorder.timedEvents(as: DispatchQueue.SchedulerTimeType.self)
    #expect(timed.map(\.event) == [.subscription, .value(1), .value(2), .completion(.finished)])
    #expect(
      timed.map { start.distance(to: $0.time) } == [.zero, .seconds(2), .seconds(2), .seconds(2)])
  }

  @Test("has no times when made without a scheduler")
  func noTimesWithoutScheduler() {
    let recorder = Just(1).record()
    #expect(recorder.timedEvents(as: Int.self).isEmpty)
  }
}

@Suite("TestSubscriber failure paths")
struct TestSubscriberFailureTests {
  @Test("values(count:) records an issue when the publisher completes early")
  func valuesCompletesEarly() async {
    let recorder = [1].publisher.record()
    await withKnownIssue {
      let values = await recorder.values(count: 2, timeout: .milliseconds(50))
      #expect(values == [1])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("completed after 1 of 2 values")
    }
  }

  @Test("values(count:) records an issue on timeout")
  func valuesTimesOut() async {
    let recorder = PassthroughSubject<Int, Never>().record()
    await withKnownIssue {
      _ = await recorder.values(count: 1, timeout: .milliseconds(50))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("Timed out")
    }
  }

  @Test("completion(timeout:) records an issue when no completion arrives")
  func completionTimesOut() async {
    let recorder = PassthroughSubject<Int, Never>().record()
    await withKnownIssue {
      let completion = await recorder.completion(timeout: .milliseconds(50))
      #expect(completion == nil)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("waiting for the completion")
    }
  }

  @Test("next() records an issue when the publisher completes before the value")
  func nextAfterCompletion() async {
    let recorder = Empty<Int, Never>().record()
    await withKnownIssue {
      let value = await recorder.next(timeout: .milliseconds(50))
      #expect(value == nil)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("completed before value #1")
    }
  }

  @Test("await completion reports a timeout at the line that made the recorder")
  func completionPropertyReportsAtRecordLine() async {
    let subject = PassthroughSubject<Int, Never>()
    let line = #line + 1
    let recorder = subject.record(timeout: .milliseconds(50))
    let recorded = await asyncIssues {
      let completion = await recorder.completion
      #expect(completion == nil)
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(recorded.first?.sourceLocation?.fileID == #fileID)
    let message = recorded.first.map(text(of:)) ?? ""
    #expect(message.contains("Timed out after 0.05 seconds waiting for the completion"))
    #expect(message.contains("the recorder made here"))
  }

  @Test("a TestSubscriber made directly reports await completion at the line that made it")
  func completionPropertyReportsAtInitLine() async {
    let subject = PassthroughSubject<Int, Never>()
    let line = #line + 1
    let subscriber = TestSubscriber<Int, Never>(timeout: .milliseconds(50))
    subject.subscribe(subscriber)
    let recorded = await asyncIssues { _ = await subscriber.completion }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
  }

  @Test("the waiting methods report at their own line, with the recorder's timeout by default")
  func waitingMethodsReportAtTheirLine() async {
    let recorder = PassthroughSubject<Int, Never>().record(timeout: .milliseconds(50))
    var lines: [Int] = []
    let recorded = await asyncIssues {
      lines.append(#line + 1)
      _ = await recorder.next()
      lines.append(#line + 1)
      _ = await recorder.values(count: 1)
      lines.append(#line + 1)
      _ = await recorder.completion(timeout: .milliseconds(50))
    }
    #expect(recorded.compactMap(\.sourceLocation?.line) == lines)
    #expect(recorded.allSatisfy { $0.sourceLocation?.fileID == #fileID })
    #expect(recorded.allSatisfy { text(of: $0).contains("Timed out after 0.05 seconds") })
  }

  @Test("the completion accessor returns at once when the completion has arrived")
  func completionArrived() async {
    let recorder = Just(1).record()
    #expect(await recorder.completion == .finished)
  }
}
