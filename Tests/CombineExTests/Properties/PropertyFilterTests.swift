import CombineEx
import CombineExTesting
import Testing

@Suite("Property filter(initial:)")
struct PropertyFilterTests {
  @Test("filter(initial:) starts with initial when the current value is excluded")
  func startsWithInitial() {
    let source = MutableProperty(-1)
    let positive = source.filter(initial: 0) { $0 > 0 }
    #expect(positive.value == 0)
    #expect(positive.record().values == [0])
  }

  @Test("filter(initial:) starts with the current value when it is included")
  func startsWithIncludedCurrent() {
    let source = MutableProperty(3)
    let positive = source.filter(initial: 0) { $0 > 0 }
    #expect(positive.value == 3)
    #expect(positive.record().values == [3])
  }

  @Test("filter(initial:) keeps the last included value and publishes only included values")
  func keepsLastIncluded() {
    let source = MutableProperty(0)
    let even = source.filter(initial: -1) { $0.isMultiple(of: 2) }
    let recorder = even.record()
    source.value = 1
    source.value = 2
    source.value = 3
    #expect(even.value == 2)
    #expect(recorder.values == [0, 2])
  }

  @Test("a late subscriber to filter(initial:) receives the last included value")
  func lateSubscriber() {
    let source = MutableProperty(0)
    let even = source.filter(initial: -1) { $0.isMultiple(of: 2) }
    source.value = 4
    source.value = 5
    let late = even.record()
    source.value = 6
    #expect(late.values == [4, 6])
  }

  @Test("filter(initial:) subscribes to its source once, at once")
  func subscribesOnce() {
    let source = ProbedProperty(0)
    let filtered = source.filter(initial: 0) { _ in true }
    #expect(source.probe.subscriptions == 1)
    _ = filtered.record()
    _ = filtered.record()
    #expect(source.probe.subscriptions == 1)
  }

  @Test("a filter(initial:) subscriber keeps it following after the property is dropped")
  func subscriberKeepsItAlive() {
    let source = ProbedProperty(0)
    weak var weakFiltered: Property<Int>?
    var filtered: Property<Int>? = source.filter(initial: 0) { $0 > 0 }
    weakFiltered = filtered
    let recorder = filtered?.record()
    filtered = nil
    #expect(weakFiltered == nil)
    source.source.value = 8
    #expect(recorder?.values == [0, 8])
    recorder?.cancel()
    #expect(source.probe.cancels == 1)
    source.source.value = 9
    #expect(recorder?.values == [0, 8])
  }

  @Test("dropping an unobserved filter(initial:) cancels its subscription to the source")
  func droppedCancels() {
    let source = ProbedProperty(0)
    var filtered: Property<Int>? = source.filter(initial: 0) { $0 > 0 }
    #expect(filtered?.value == 0)
    filtered = nil
    #expect(source.probe.cancels == 1)
  }

  @Test("filter(initial:), its state and its source are freed once their users are gone")
  func everythingFreed() {
    weak var weakSource: MutableProperty<Int>?
    weak var weakFiltered: Property<Int>?
    do {
      let source = MutableProperty(0)
      weakSource = source
      let filtered = source.filter(initial: 0) { $0 > 0 }
      weakFiltered = filtered
      let recorder = filtered.record()
      source.value = 1
      #expect(recorder.values == [0, 1])
      recorder.cancel()
    }
    #expect(weakFiltered == nil)
    #expect(weakSource == nil)
  }

  @Test("filter(initial:) of a constant keeps the value and finishes late subscribers")
  func constantSource() {
    let filtered = Property(value: 4).filter(initial: 0) { $0 > 1 }
    #expect(filtered.value == 4)
    #expect(filtered.record().events == [.subscription, .value(4), .completion(.finished)])
  }

  @Test("a filter(initial:) subscriber with limited demand gets the latest when it asks")
  func limitedDemand() {
    let source = MutableProperty(0)
    let recorder = source.filter(initial: 0) { _ in true }.record(initialDemand: .max(1))
    source.value = 1
    source.value = 2
    #expect(recorder.values == [0])
    recorder.request(.max(1))
    #expect(recorder.values == [0, 2])
  }

  @Test("a source set from inside a filter(initial:) subscriber is delivered after, in order")
  func reentrantSet() {
    let source = MutableProperty(0)
    let even = source.filter(initial: 0) { $0.isMultiple(of: 2) }
    var seen: [Int] = []
    let cancellable = even.sink { value in
      seen.append(value)
      if value == 2 {
        source.value = 4
        seen.append(-1)
      }
    }
    let other = even.record()
    source.value = 2
    #expect(seen == [0, 2, -1, 4])
    #expect(other.values == [0, 2, 4])
    withExtendedLifetime(cancellable) {}
  }
}
