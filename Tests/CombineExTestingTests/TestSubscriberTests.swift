import CombineExCore
import CombineExTesting
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
    }
  }
}
