import CombineEx
import CombineExTesting
import Testing

@Suite("Property(initial:then:) completion and lifetime")
struct PropertyInitialThenLifetimeTests {
  @Test("a subscriber that comes after then finished receives the last value, then finished")
  func lateSubscriberAfterFinish() {
    let values = PassthroughSubject<Int, Never>()
    let property = Property(initial: 0, then: values)
    values.send(4)
    values.send(completion: .finished)
    #expect(property.record().events == [.subscription, .value(4), .completion(.finished)])
  }

  @Test("a subscriber keeps Property(initial:then:) following after the property is dropped")
  func subscriberKeepsItFollowing() {
    let values = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(values)
    weak var weakProperty: Property<Int>?
    var property: Property<Int>? = Property(initial: 0, then: probe.publisher)
    weakProperty = property
    let recorder = property?.record()
    property = nil
    #expect(weakProperty == nil)
    values.send(1)
    #expect(recorder?.values == [0, 1])
    #expect(probe.cancels == 0)
    recorder?.cancel()
    #expect(probe.cancels == 1)
  }

  @Test("a sink on a temporary Property(initial:then:) receives every value")
  func temporaryProperty() {
    let values = PassthroughSubject<Int, Never>()
    var seen: [Int] = []
    let cancellable = Property(initial: 0, then: values).sink { seen.append($0) }
    values.send(1)
    values.send(2)
    #expect(seen == [0, 1, 2])
    cancellable.cancel()
  }

  @Test("Property(initial:then:) does not keep itself alive through then")
  func notKeptAliveByThen() {
    let values = PassthroughSubject<Int, Never>()
    weak var weakProperty: Property<Int>?
    do {
      let property = Property(initial: 0, then: values)
      weakProperty = property
      values.send(1)
      #expect(property.value == 1)
    }
    #expect(weakProperty == nil)
  }
}
