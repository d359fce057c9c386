import CombineEx
import CombineExTesting
import Testing

@Suite("Property")
struct PropertyTests {
  @Test("Property(value:) is a constant: the value, then finished")
  func constant() {
    let property = Property(value: 3)
    #expect(property.value == 3)
    let recorder = property.record()
    #expect(recorder.events == [.subscription, .value(3), .completion(.finished)])
  }

  @Test("Property(mutable) is a read-only view that follows the mutable property")
  func readOnlyView() {
    let mutable = MutableProperty(1)
    let property = Property(mutable)
    let recorder = property.record()
    mutable.value = 2
    #expect(property.value == 2)
    #expect(recorder.values == [1, 2])
  }

  @Test("Property(initial:then:) subscribes to then exactly once, at once")
  func initialThenSubscribesOnce() {
    let values = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(values)
    let property = Property(initial: 0, then: probe.publisher)
    #expect(probe.subscriptions == 1)
    let first = property.record()
    let second = property.record()
    values.send(1)
    #expect(probe.subscriptions == 1)
    #expect(first.values == [0, 1])
    #expect(second.values == [0, 1])
  }

  @Test("Property(initial:then:) gives late subscribers the latest value")
  func lateSubscriberGetsLatest() {
    let values = PassthroughSubject<Int, Never>()
    let property = Property(initial: 0, then: values)
    values.send(5)
    values.send(6)
    let late = property.record()
    #expect(late.values == [6])
    #expect(property.value == 6)
  }

  @Test("when then finishes, the property keeps its last value and finishes its subscribers")
  func finishesWithThen() {
    let values = PassthroughSubject<Int, Never>()
    let property = Property(initial: 0, then: values)
    let recorder = property.record()
    values.send(1)
    values.send(completion: .finished)
    #expect(recorder.values == [0, 1])
    #expect(recorder.receivedCompletion == .finished)
    #expect(property.value == 1)
  }

  @Test("dropping a Property(initial:then:) cancels its subscription to then")
  func droppingCancelsThen() {
    let values = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(values)
    var property: Property<Int>? = Property(initial: 0, then: probe.publisher)
    #expect(property?.value == 0)
    property = nil
    #expect(probe.cancels == 1)
  }
}
