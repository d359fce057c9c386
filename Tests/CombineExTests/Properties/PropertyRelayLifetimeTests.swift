import CombineEx
import Foundation
import Testing

/// A composition's relay holds the value and subscribers it feeds strongly (not the property):
/// freeing the property, even while other threads set its source, must release every value it
/// kept and never crash.
@Suite("Property compositions: what a freed composition releases")
struct PropertyRelayLifetimeTests {
  @Test("a freed composition releases its value at once, though its source lives on")
  func freedCompositionReleasesItsValue() {
    let live = InstanceCounter()
    let source = MutableProperty(1)
    var mapped: Property<Counted>? = source.map { live.make($0) }
    #expect(mapped?.value.value == 1)
    source.value = 2
    #expect(mapped?.value.value == 2)
    #expect(live.alive == 1)
    mapped = nil
    #expect(live.alive == 0)
    source.value = 3  // the cancelled relay makes nothing
    #expect(live.alive == 0)
  }

  @Test("a composition's last subscriber, cancelled, releases the value of a freed composition")
  func lastSubscriberReleasesValue() {
    let live = InstanceCounter()
    let source = MutableProperty(1)
    var mapped: Property<Counted>? = source.map { live.make($0) }
    let received = LockedBox<[Int]>([])
    let cancellable = mapped!.sink { counted in received.withLock { $0.append(counted.value) } }
    mapped = nil
    source.value = 2
    #expect(received.withLock { $0 } == [1, 2])
    #expect(live.alive == 1)
    cancellable.cancel()
    #expect(live.alive == 0)
  }

  @Test("stress: compositions freed while other threads set the source release everything")
  func stressFreedWhileSourceSets() async {
    let live = InstanceCounter()
    let source = MutableProperty(0)
    let delivered = LockedBox(0)
    await concurrentPerform(8) { thread in
      if thread.isMultiple(of: 2) {
        for index in 1...500 { source.value = thread * 10_000 + index }
      } else {
        for round in 1...200 {
          let mapped = source.map { live.make($0) }
          if round.isMultiple(of: 2) {
            let cancellable = mapped.sink { _ in delivered.withLock { $0 += 1 } }
            _ = mapped.value
            if round.isMultiple(of: 4) { cancellable.cancel() }
            // Otherwise the cancellable goes with the property, at the end of the round.
          }
        }
      }
    }
    #expect(delivered.withLock { $0 } >= 100)
    #expect(live.alive == 0)
  }
}
