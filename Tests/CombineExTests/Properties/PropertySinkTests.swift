import CombineEx
import Foundation
import Testing

/// `Property`'s own `sink`: an eager property keeps the closures in its subject core's
/// subscription (of its own core, or of its source's for a fused `map`); any other property
/// goes through `Publisher`'s `sink`. The behavior is the same either way.
@Suite("Property sink")
struct PropertySinkTests {
  @Test("a sink on a map receives the current value, each change, and nothing after cancel")
  func sinkOnMap() {
    let source = MutableProperty(1)
    let mapped = source.map { $0 * 10 }
    let received = LockedBox<[Int]>([])
    let cancellable = mapped.sink { value in received.withLock { $0.append(value) } }
    source.value = 2
    cancellable.cancel()
    source.value = 3
    #expect(received.withLock { $0 } == [10, 20])
    #expect(mapped.value == 30)
  }

  @Test("a sink on a map of a map receives each mapped change once")
  func sinkOnMapOfMap() {
    let source = MutableProperty(1)
    let mapped = source.map { $0 * 10 }.map { "#\($0)" }
    let received = LockedBox<[String]>([])
    let cancellable = mapped.sink { value in received.withLock { $0.append(value) } }
    source.value = 2
    #expect(received.withLock { $0 } == ["#10", "#20"])
    cancellable.cancel()
  }

  @Test("a sink on a map of a finishing property receives the last value, then finished")
  func sinkOnMapOfFinishingProperty() {
    let readings = PassthroughSubject<Int, Never>()
    let latest = Property(initial: 0, then: readings)
    let mapped = latest.map { $0 * 2 }
    let events = LockedBox<[String]>([])
    let early = mapped.sink(
      receiveCompletion: { _ in events.withLock { $0.append("early finished") } },
      receiveValue: { value in events.withLock { $0.append("early \(value)") } })
    readings.send(4)
    readings.send(completion: .finished)
    let late = mapped.sink(
      receiveCompletion: { _ in events.withLock { $0.append("late finished") } },
      receiveValue: { value in events.withLock { $0.append("late \(value)") } })
    #expect(
      events.withLock { $0 } == ["early 0", "early 8", "early finished", "late 8", "late finished"])
    early.cancel()
    late.cancel()
  }

  @Test("a sink attached to a map inside its source's delivery receives that delivery's value")
  func sinkAttachedInsideSourceDelivery() {
    let source = MutableProperty(0)
    let received = LockedBox<[Int]>([])
    let inner = LockedBox<AnyCancellable?>(nil)
    let mappedSlot = LockedBox<Property<Int>?>(nil)
    // Attached before the map, so it runs before the map's relay in each delivery.
    let outer = source.sink { value in
      guard value == 1, let mapped = mappedSlot.withLock({ $0 }) else { return }
      let cancellable = mapped.sink { value in received.withLock { $0.append(value) } }
      inner.withLock { $0 = cancellable }
    }
    let mapped = source.map { $0 * 10 }
    mappedSlot.withLock { $0 = mapped }
    source.value = 1
    source.value = 2
    #expect(received.withLock { $0 } == [0, 10, 20])
    outer.cancel()
    inner.withLock { $0 = nil }
  }

  @Test("a sink that sets a map's source receives the new value after the current one")
  func reentrantSetFromSink() {
    let source = MutableProperty(0)
    let mapped = source.map { $0 + 100 }
    let received = LockedBox<[Int]>([])
    let cancellable = mapped.sink { value in
      received.withLock { $0.append(value) }
      if value == 101 { source.value = 2 }
    }
    source.value = 1
    #expect(received.withLock { $0 } == [100, 101, 102])
    #expect(mapped.value == 102)
    cancellable.cancel()
  }

  @Test("a sink on a constant property receives its value, then finished")
  func sinkOnConstant() {
    let events = LockedBox<[String]>([])
    let cancellable = Property(value: 7).sink(
      receiveCompletion: { _ in events.withLock { $0.append("finished") } },
      receiveValue: { value in events.withLock { $0.append("\(value)") } })
    #expect(events.withLock { $0 } == ["7", "finished"])
    cancellable.cancel()
  }

  @Test("a sink on a read-only view of a mutable property receives each change")
  func sinkOnView() {
    let source = MutableProperty(1)
    let view = Property(source)
    let received = LockedBox<[Int]>([])
    let cancellable = view.sink { value in received.withLock { $0.append(value) } }
    source.value = 2
    cancellable.cancel()
    source.value = 3
    #expect(received.withLock { $0 } == [1, 2])
  }

  @Test("a sink of a freed map, kept after its source finished, keeps no value alive")
  func keptSinkOfFinishedMapKeepsNoValue() {
    let live = InstanceCounter()
    let readings = PassthroughSubject<Counted, Never>()
    var latest: Property<Counted>? = Property(initial: live.make(0), then: readings)
    var mapped: Property<Int>? = latest!.map { $0.value * 2 }
    let events = LockedBox<[String]>([])
    let cancellable = mapped!.sink(
      receiveCompletion: { _ in events.withLock { $0.append("finished") } },
      receiveValue: { value in events.withLock { $0.append("\(value)") } })
    mapped = nil
    latest = nil
    readings.send(live.make(1))
    #expect(live.alive == 1)
    readings.send(completion: .finished)
    #expect(events.withLock { $0 } == ["0", "2", "finished"])
    #expect(live.alive == 0)
    _ = cancellable
  }

  @Test("a cancelled sink of a freed map releases its closures and the map's state")
  func cancelledSinkReleasesEverything() {
    let live = InstanceCounter()
    let source = MutableProperty(1)
    var mapped: Property<Counted>? = source.map { live.make($0) }
    weak var weakOwner: Box<Int>?
    var cancellable: AnyCancellable?
    do {
      let owner = Box(0)
      weakOwner = owner
      cancellable = mapped!.sink { counted in owner.value = counted.value }
    }
    mapped = nil
    source.value = 2
    #expect(weakOwner?.value == 2)
    #expect(live.alive == 1)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    #expect(live.alive == 0)
    source.value = 3
    #expect(live.alive == 0)
    cancellable = nil
  }
}
