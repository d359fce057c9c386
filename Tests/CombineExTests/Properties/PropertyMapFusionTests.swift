import CombineEx
import CombineExTesting
import Foundation
import Testing

/// A `map` of a `MutableProperty` or of an eager `Property` delivers to its subscribers in its
/// source's delivery, and stores its value without delivering it while nobody observes it: the
/// cases where that could show (a subscriber arriving inside the source's delivery, a first
/// subscriber after unobserved changes, a finished source, many threads at once).
@Suite("Property map fused with its source")
struct PropertyMapFusionTests {
  @Test("a map first observed after unobserved changes replays its latest value")
  func firstSubscriberAfterUnobservedChanges() {
    let source = MutableProperty(1)
    let mapped = source.map { $0 * 10 }
    source.value = 2
    source.value = 3
    #expect(mapped.value == 30)
    let recorder = mapped.record()
    source.value = 4
    #expect(recorder.values == [30, 40])
  }

  @Test("a map of an eager property first observed after changes replays its latest value")
  func firstSubscriberOfDerivedMapAfterUnobservedChanges() {
    let readings = PassthroughSubject<Int, Never>()
    let latest = Property(initial: 0, then: readings)
    let mapped = latest.map { $0 + 100 }
    readings.send(1)
    readings.send(2)
    let recorder = mapped.record()
    readings.send(3)
    #expect(recorder.values == [102, 103])
    #expect(mapped.value == 103)
  }

  @Test("a map subscribed to inside its source's delivery receives that delivery's value")
  func subscriberAttachedInsideSourceDelivery() {
    let source = MutableProperty(0)
    let inner = LockedBox<TestSubscriber<Int, Never>?>(nil)
    let mappedSlot = LockedBox<Property<Int>?>(nil)
    // Attached before the map, so it runs before the map's relay in each delivery.
    let outer = source.sink { value in
      if value == 1, let mapped = mappedSlot.withLock({ $0 }) {
        inner.withLock { $0 = mapped.record() }
      }
    }
    let mapped = source.map { $0 * 10 }
    mappedSlot.withLock { $0 = mapped }
    source.value = 1
    source.value = 2
    #expect(inner.withLock { $0 }?.values == [0, 10, 20])
    #expect(mapped.value == 20)
    outer.cancel()
  }

  @Test("a map of a map subscribed to inside the source's delivery receives that delivery's value")
  func subscriberOfMapOfMapAttachedInsideSourceDelivery() {
    let source = MutableProperty(0)
    let inner = LockedBox<TestSubscriber<String, Never>?>(nil)
    let mappedSlot = LockedBox<Property<String>?>(nil)
    let outer = source.sink { value in
      if value == 1, let mapped = mappedSlot.withLock({ $0 }) {
        inner.withLock { $0 = mapped.record() }
      }
    }
    let mapped = source.map { $0 * 10 }.map { "#\($0)" }
    mappedSlot.withLock { $0 = mapped }
    source.value = 1
    source.value = 2
    #expect(inner.withLock { $0 }?.values == ["#0", "#10", "#20"])
    outer.cancel()
  }

  @Test("a map of a finished property delivers its last value, then finishes")
  func mapOfFinishedProperty() {
    let readings = PassthroughSubject<Int, Never>()
    let latest = Property(initial: 0, then: readings)
    let mapped = latest.map { $0 * 2 }
    let early = mapped.record()
    readings.send(4)
    readings.send(completion: .finished)
    let late = mapped.record()
    #expect(early.events == [.subscription, .value(0), .value(8), .completion(.finished)])
    #expect(late.events == [.subscription, .value(8), .completion(.finished)])
    #expect(mapped.value == 8)
  }

  @Test("every subscriber of a map receives each change once; the transform runs once per change")
  func everySubscriberOnceTransformOnce() {
    let source = MutableProperty(0)
    let calls = LockedBox(0)
    let mapped = source.map { value -> Int in
      calls.withLock { $0 += 1 }
      return value + 1
    }
    let recorders = (0..<5).map { _ in mapped.record() }
    source.value = 1
    source.value = 2
    #expect(recorders.allSatisfy { $0.values == [1, 2, 3] })
    #expect(calls.withLock { $0 } == 3)
  }

  @Test(
    "stress: map subscribers attached and cancelled while other threads set end on the last value")
  func stressSubscribersComeAndGoWhileSetting() async {
    let source = MutableProperty(0)
    let mapped = source.map { $0 * 2 }
    let kept = LockedBox<[(log: DeliveryLog<Int>, cancellable: AnyCancellable)]>([])
    await concurrentPerform(8) { thread in
      for index in 1...200 {
        if thread.isMultiple(of: 2) {
          source.value = thread * 10_000 + index
        } else {
          let log = DeliveryLog<Int>()
          let cancellable = mapped.sink { log.receive($0) }
          if index.isMultiple(of: 4) {
            kept.withLock { $0.append((log, cancellable)) }
          } else {
            cancellable.cancel()
          }
        }
      }
    }
    let final = mapped.value
    #expect(final == source.value * 2)
    for (log, _) in kept.withLock({ $0 }) {
      #expect(log.overlaps == 0)
      #expect(log.values.last == final)
      #expect(log.values.allSatisfy { $0.isMultiple(of: 2) })
    }
    kept.withLock { $0.removeAll() }
  }
}
