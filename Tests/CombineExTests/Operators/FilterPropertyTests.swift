import CombineEx
import CombineExTesting
import Testing

@Suite("filter(_ property:)")
struct FilterPropertyTests {
  @Test("passes values while the property is true and drops them while it is false")
  func gate() {
    let isOn = MutableProperty(false)
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.filter(isOn).record()
    subject.send(1)
    isOn.value = true
    subject.send(2)
    subject.send(3)
    isOn.value = false
    subject.send(4)
    #expect(recorder.values == [2, 3])
  }

  @Test("a change of the property alone publishes nothing")
  func propertyChangesPublishNothing() {
    let isOn = MutableProperty(false)
    let recorder = PassthroughSubject<Int, Never>().filter(Property(isOn)).record()
    isOn.value = true
    isOn.value = false
    #expect(recorder.values.isEmpty)
  }

  @Test("a dropped value gives its demand back; completion and failure pass through")
  func demandAndCompletion() {
    let isOn = MutableProperty(true)
    let subject = PassthroughSubject<Int, ColdTestError>()
    let recorder = subject.filter(isOn).record(initialDemand: .max(1))
    isOn.value = false
    subject.send(1)
    isOn.value = true
    subject.send(2)
    subject.send(completion: .failure(ColdTestError(1)))
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion == .failure(ColdTestError(1)))
  }

  @Test("returns Publishers.Filter, cold on a cold upstream")
  func typeAndColdness() {
    let isOn = Property(value: true)
    let filtered = PassthroughSubject<Int, Never>().filter(isOn)
    #expect(type(of: filtered) == Publishers.Filter<PassthroughSubject<Int, Never>>.self)
    let runs = RunCounter()
    let erased: AnyDeferredPublisher<Int, Never> = countingDeferred([1, 2], counter: runs)
      .filter(isOn).eraseToAnyDeferredPublisher()
    #expect(erased.record().values == [1, 2])
    #expect(runs.value == 1)
  }
}
