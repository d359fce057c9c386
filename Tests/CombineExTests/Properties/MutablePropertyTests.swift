import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("MutableProperty")
struct MutablePropertyTests {
  @Test("subscribers see the current value first, then every set, without deduplication")
  func currentValueThenEverySet() {
    let property = MutableProperty(1)
    let recorder = property.record()
    property.value = 2
    property.value = 2
    property.value = 3
    #expect(recorder.values == [1, 2, 2, 3])
  }

  @Test("modify changes the value atomically and publishes once")
  func modifyPublishesOnce() {
    let property = MutableProperty([1])
    let recorder = property.record()
    let count = property.modify { values -> Int in
      values.append(2)
      values.append(3)
      return values.count
    }
    #expect(count == 3)
    #expect(recorder.values == [[1], [1, 2, 3]])
  }

  @Test("swap stores the new value, publishes it and returns the old one")
  func swapReturnsOldValue() {
    let property = MutableProperty("a")
    let recorder = property.record()
    #expect(property.swap("b") == "a")
    #expect(property.value == "b")
    #expect(recorder.values == ["a", "b"])
  }

  @Test("withValue reads the current value")
  func withValueReads() {
    let property = MutableProperty(5)
    #expect(property.withValue { $0 * 2 } == 10)
  }

  @Test("setting the value from inside a subscriber is delivered after the current delivery")
  func reentrantSetIsQueued() {
    // Unlike a subject's nested delivery, every subscriber sees the same order.
    let property = MutableProperty(0)
    var log: [String] = []
    let first = property.sink { value in
      log.append("A\(value)")
      if value == 1 { property.value = 2 }
    }
    let second = property.sink { log.append("B\($0)") }
    property.value = 1
    #expect(log == ["A0", "B0", "A1", "B1", "A2", "B2"])
    #expect(property.value == 2)
    withExtendedLifetime((first, second)) {}
  }

  @Test(
    "reading value inside a subscriber returns the latest value set, even one not yet delivered")
  func readInsideSubscriber() {
    let property = MutableProperty(0)
    var log: [String] = []
    let cancellable = property.sink { delivered in
      log.append("delivered \(delivered), value \(property.value)")
      if delivered == 1 {
        property.value = 2
        log.append("set 2, value \(property.value)")
      }
    }
    property.value = 1
    #expect(
      log == [
        "delivered 0, value 0", "delivered 1, value 1", "set 2, value 2", "delivered 2, value 2",
      ])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a subscriber with limited demand receives the latest value when it asks again")
  func limitedDemandConflates() {
    let property = MutableProperty(0)
    let recorder = property.record(initialDemand: .max(1))
    property.value = 1
    property.value = 2
    recorder.request(.max(1))
    #expect(recorder.values == [0, 2])
  }

  @Test("cancelling stops deliveries and frees the subscriber")
  func cancelFrees() {
    weak var weakOwner: TestOwnerObject?
    let property = MutableProperty(0)
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwnerObject()
      weakOwner = owner
      cancellable = property.sink { owner.values.append($0) }
    }
    property.value = 1
    #expect(weakOwner?.values == [0, 1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a property with no subscribers is freed")
  func propertyIsFreed() {
    weak var weakProperty: MutableProperty<Int>?
    do {
      let property = MutableProperty(0)
      weakProperty = property
      let cancellable = property.sink { _ in }
      cancellable.cancel()
    }
    #expect(weakProperty == nil)
  }

  @Test("a live subscription does not keep the property (only its subscribers' machinery)")
  func subscriptionDoesNotKeepProperty() {
    weak var weakProperty: MutableProperty<Int>?
    let recorder: TestSubscriber<Int, Never>
    do {
      let property = MutableProperty(0)
      weakProperty = property
      recorder = property.record()
    }
    // As in the original CombineEx, unlike a subject: the subscription keeps the inner
    // machinery, not the property.
    #expect(weakProperty == nil)
    #expect(recorder.values == [0])
    recorder.cancel()
  }

  @Test("stress: 1,000 concurrent modify { $0 += 1 } give 1,000")
  func stressConcurrentModify() async {
    let property = MutableProperty(0)
    await concurrentPerform(1_000) { _ in property.modify { $0 += 1 } }
    #expect(property.value == 1_000)
  }

  @Test("stress: concurrent sets are delivered once each, serially, the last being value")
  func stressConcurrentSets() async {
    let property = MutableProperty(-1)
    let delivered = LockedBox<(values: [Int], inside: Int, overlaps: Int)>(([], 0, 0))
    let cancellable = property.sink { value in
      delivered.withLock {
        $0.inside += 1
        if $0.inside > 1 { $0.overlaps += 1 }
      }
      delivered.withLock {
        $0.values.append(value)
        $0.inside -= 1
      }
    }
    await concurrentPerform(8) { thread in
      for index in 0..<1_000 { property.value = thread * 1_000 + index }
    }
    let (values, _, overlaps) = delivered.withLock { $0 }
    #expect(overlaps == 0)
    #expect(values.count == 8_001)
    #expect(values.last == property.value)
    cancellable.cancel()
  }

  @Test("sink and map.sink: cancel releases the closures while the cancellable is kept")
  func sinkCancelReleasesClosures() {
    let property = MutableProperty(1)
    weak var weakOwner: TestOwnerObject?
    let direct: AnyCancellable
    let mapped: AnyCancellable
    do {
      let owner = TestOwnerObject()
      weakOwner = owner
      direct = property.sink { owner.values.append($0) }
      mapped = property.map { $0 * 10 }.sink { owner.values.append($0) }
      property.value = 2
      #expect(owner.values == [1, 10, 2, 20])
    }
    direct.cancel()
    #expect(weakOwner != nil)
    mapped.cancel()
    #expect(weakOwner == nil)
    property.value = 3
  }
}

/// An object whose lifetime the leak tests watch.
final class TestOwnerObject {
  var values: [Int] = []
}
