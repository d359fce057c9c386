import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("Record")
struct RecordTests {
  @Test("replays the recorded values, then the recorded completion")
  func replays() {
    let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
    let recorder = record.record()
    #expect(
      recorder.events == [
        .subscription, .value(1), .value(2), .value(3), .completion(.finished),
      ])
  }

  @Test("the record closure fills the recording")
  func recordClosure() {
    let record = Record<Int, TestError> { recording in
      recording.receive(1)
      recording.receive(2)
      recording.receive(completion: .failure(TestError(5)))
    }
    #expect(record.recording.output == [1, 2])
    #expect(record.recording.completion == .failure(TestError(5)))
    let recorder = record.record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .failure(TestError(5)))
  }

  @Test("a recording without a completion finishes")
  func defaultCompletion() {
    let record = Record<Int, TestError> { $0.receive(1) }
    #expect(record.recording.completion == .finished)
    #expect(Record<Int, TestError>.Recording(output: [1]).completion == .finished)
    #expect(record.record().receivedCompletion == .finished)
  }

  @Test("replays the whole recording to every subscriber")
  func replaysToEverySubscriber() {
    let record = Record<String, Never>(output: ["a", "b"], completion: .finished)
    #expect(record.record().values == ["a", "b"])
    #expect(record.record().values == ["a", "b"])
  }

  @Test("honours demand, and the completion follows the last value without more demand")
  func honoursDemand() {
    let recorder = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("without demand nothing is delivered")
  func noDemand() {
    let recorder = Record<Int, TestError>(output: [1], completion: .failure(TestError()))
      .record(initialDemand: .none)
    #expect(recorder.isSubscribed)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("demand returned from receive is honoured, iteratively")
  func demandFromReceive() {
    let output = Array(0..<10_000)
    let recorder = Record<Int, Never>(output: output, completion: .finished)
      .record(initialDemand: .max(1), demandAfterEachValue: .max(1))
    #expect(recorder.values == output)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the recorded failure follows the values")
  func failureAfterValues() {
    let recorder = Record<Int, TestError>(output: [1], completion: .failure(TestError(2)))
      .record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("an empty recording completes at once, without demand")
  func emptyRecording() {
    let finished = Record<Int, TestError>(output: [], completion: .finished)
      .record(initialDemand: .none)
    let failed = Record<Int, TestError>(output: [], completion: .failure(TestError(1)))
      .record(initialDemand: .none)
    #expect(finished.receivedCompletion == .finished)
    #expect(failed.receivedCompletion == .failure(TestError(1)))
  }

  @Test("cancel stops delivery")
  func cancelStops() {
    let recorder = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
      .record(initialDemand: .max(1))
    recorder.cancel()
    recorder.request(.max(5))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel from inside receive stops delivery at once")
  func reentrantCancel() {
    var values: [Int] = []
    var completions = 0
    var subscription: (any Subscription)?
    Record<Int, Never>(output: [1, 2, 3], completion: .finished).subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { received in
          subscription = received
          received.request(.unlimited)
        },
        receiveValue: { value in
          values.append(value)
          subscription?.cancel()
          return .none
        },
        receiveCompletion: { _ in completions += 1 }))
    #expect(values == [1])
    #expect(completions == 0)
  }

  @Test("a request made inside receive(subscription:) delivers before it returns, as in Combine")
  func deliversInsideRequestDuringSubscription() {
    var events: [String] = []
    var subscription: (any Subscription)?
    Record<Int, Never>(output: [1, 2, 3], completion: .finished).subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          events.append("request")
          $0.request(.max(1))
          events.append("returned")
          $0.cancel()
        },
        receiveValue: { value in
          events.append("\(value)")
          return .none
        },
        receiveCompletion: { _ in events.append("finished") }))
    subscription?.request(.max(1))
    #expect(events == ["request", "1", "returned"])
  }

  @Test("a request made inside receive(_:) delivers iteratively, without recursion")
  func reentrantRequestIsIterative() {
    let subscriber = ReentrantRequester<Int, Never>(firstRequests: [.none, .max(1)])
    Record<Int, Never>(output: [1, 2, 3, 4, 5], completion: .finished).subscribe(subscriber)
    #expect(subscriber.values == [1, 2, 3, 4, 5])
    #expect(subscriber.deepest == 1)
    #expect(subscriber.completions == 1)
  }

  @Test("describes itself by its values until it ends, then as Cancelled Events, as Combine does")
  func description() throws {
    var subscription: (any Subscription)?
    Record<Int, TestError>(output: [1, 2], completion: .failure(TestError(1))).subscribe(
      AnySubscriber<Int, TestError>(
        receiveSubscription: { subscription = $0 }, receiveValue: nil, receiveCompletion: nil))
    let received = try #require(subscription)
    #expect("\(received)" == "[1, 2]")
    let live = Mirror(reflecting: received)
    #expect(live.children.map(\.label) == ["sequence", "completion"])
    #expect(live.children.map { "\($0.value)" } == ["[1, 2]", "failure(TestError(1))"])
    let playground =
      (received as? any CustomPlaygroundDisplayConvertible)?
      .playgroundDescription as? String
    #expect(playground == "[1, 2]")
    received.request(.unlimited)
    #expect("\(received)" == "Cancelled Events")
    #expect(Mirror(reflecting: received).children.map { "\($0.value)" }.first == "[]")
  }

  @Test("cancel releases the subscriber")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    var subscription: (any Subscription)?
    let record = Record<Int, Never>(output: [1, 2], completion: .finished)
    do {
      let owner = TestOwner()
      weakOwner = owner
      record.subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { subscription = $0 },
          receiveValue: { value in
            owner.values.append(value)
            return .none
          },
          receiveCompletion: nil))
    }
    #expect(weakOwner != nil)
    subscription?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a recording round-trips through Codable")
  func codable() throws {
    let record = Record<Int, TestCodableError>(
      output: [1, 2], completion: .failure(TestCodableError(code: 3)))
    let data = try JSONEncoder().encode(record)
    let decoded = try JSONDecoder().decode(Record<Int, TestCodableError>.self, from: data)
    #expect(decoded.recording.output == [1, 2])
    #expect(decoded.recording.completion == .failure(TestCodableError(code: 3)))
    #expect(decoded.record().values == [1, 2])
  }

  @Test("a decoded recording is complete")
  func decodedRecordingIsComplete() async throws {
    await #expect(processExitsWith: .failure) {
      let json = Data(#"{"output":[1],"completion":{"success":true}}"#.utf8)
      var recording = try JSONDecoder().decode(Record<Int, Never>.Recording.self, from: json)
      recording.receive(2)
    }
  }

  @Test("a completion encodes as Combine's {\"success\": ...} form")
  func completionEncoding() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let finished = Subscribers.Completion<TestCodableError>.finished
    let failure = Subscribers.Completion<TestCodableError>.failure(TestCodableError(code: 1))
    #expect(String(decoding: try encoder.encode(finished), as: UTF8.self) == #"{"success":true}"#)
    #expect(
      String(decoding: try encoder.encode(failure), as: UTF8.self)
        == #"{"error":{"code":1},"success":false}"#)
    let decoded = try JSONDecoder().decode(
      Subscribers.Completion<TestCodableError>.self, from: try encoder.encode(failure))
    #expect(decoded == failure)
  }

  @Test("recording a value after the completion stops the program")
  func valueAfterCompletion() async {
    await #expect(processExitsWith: .failure) {
      var recording = Record<Int, Never>.Recording()
      recording.receive(completion: .finished)
      recording.receive(1)
    }
  }

  @Test("recording a second completion stops the program")
  func secondCompletion() async {
    await #expect(processExitsWith: .failure) {
      var recording = Record<Int, Never>.Recording()
      recording.receive(completion: .finished)
      recording.receive(completion: .finished)
    }
  }

  @Test("a recording made with output is complete and accepts nothing more")
  func recordingWithOutputIsComplete() async {
    await #expect(processExitsWith: .failure) {
      var recording = Record<Int, Never>.Recording(output: [1])
      recording.receive(2)
    }
  }
}

/// A codable failure type for the Codable tests.
struct TestCodableError: Error, Codable, Equatable {
  let code: Int
}
