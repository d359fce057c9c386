import CombineExCore
import CombineExTesting
import Testing

@Suite("TestSubscriber cancel before subscription")
struct TestSubscriberEarlyCancelTests {
  @Test("a cancel made before the subscription arrives cancels it when it arrives")
  func cancelBeforeSubscription() {
    let subscriber = TestSubscriber<Int, Never>()
    subscriber.cancel()
    let subject = PassthroughSubject<Int, Never>()
    subject.subscribe(subscriber)
    subject.send(1)
    #expect(subscriber.values.isEmpty)
  }
}
