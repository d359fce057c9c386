import CombineEx
import CombineExTesting
import Foundation
import Testing

/// Every composition is eager, as in the original CombineEx and ReactiveSwift: it subscribes to
/// its sources once, at once, caches its value, keeps its sources alive (never the other way
/// round) and lets go of them when it and its subscribers are gone.
@Suite("Property compositions: eager derivation")
struct PropertyRelayTests {
  /// The compositions, by name: ``make(_:of:)`` makes each.
  static let names = [
    "map", "map(keyPath)", "removeDuplicates", "removeDuplicates(by:)", "filter(initial:)",
    "combinePrevious", "flatMap", "combineLatest(with:)", "[].combineLatest()", "zip(with:)",
    "lift",
  ]

  /// The composition named `names[index]`, of `source`.
  static func make<Source: PropertyProtocol<Int>>(_ index: Int, of source: Source)
    -> any PropertyProtocol
  {
    switch index {
    case 0: return source.map { $0 + 1 }
    case 1: return source.map(\.bitWidth)
    case 2: return source.removeDuplicates()
    case 3: return source.removeDuplicates(by: ==)
    case 4: return source.filter(initial: 0) { $0 > 0 }
    case 5: return source.combinePrevious(0)
    case 6: return source.flatMap { _ in Property(value: 0) }
    case 7: return source.combineLatest(with: Property(value: 0))
    case 8: return [source].combineLatest()
    case 9: return source.zip(with: MutableProperty(0))
    default: return source.lift { $0.map { $0 * 2 } }
    }
  }

  /// Subscribes to `property`, ignoring its values.
  func observe<P: PropertyProtocol>(_ property: P) -> AnyCancellable {
    property.sink { _ in }
  }

  @Test("every composition subscribes to its source once, at once, however many subscribers")
  func subscribesOnce() {
    for (index, name) in Self.names.enumerated() {
      let source = ProbedProperty(1)
      let composition = Self.make(index, of: source)
      #expect(source.probe.subscriptions == 1, "\(name)")
      let first = observe(composition)
      let second = observe(composition)
      source.source.value = 2
      #expect(source.probe.subscriptions == 1, "\(name)")
      first.cancel()
      second.cancel()
    }
  }

  @Test("every composition keeps its source alive, and lets go of it when it goes")
  func keepsSourceAlive() {
    for (index, name) in Self.names.enumerated() {
      weak var weakSource: MutableProperty<Int>?
      weak var weakComposition: AnyObject?
      var composition: AnyObject?
      do {
        let source = MutableProperty(1)
        weakSource = source
        composition = Self.make(index, of: source) as AnyObject
        weakComposition = composition
      }
      #expect(weakSource != nil, "\(name)")
      #expect(composition != nil)
      composition = nil
      #expect(weakComposition == nil, "\(name)")
      #expect(weakSource == nil, "\(name)")
    }
  }

  @Test("a source never keeps a composition alive; dropping it cancels its subscription")
  func sourceDoesNotKeepComposition() {
    for (index, name) in Self.names.enumerated() {
      let source = ProbedProperty(1)
      weak var weakComposition: AnyObject?
      do {
        let composition = Self.make(index, of: source) as AnyObject
        weakComposition = composition
      }
      #expect(weakComposition == nil, "\(name)")
      #expect(source.probe.cancels == source.probe.subscriptions, "\(name)")
      source.source.value = 2  // nothing left to deliver to
    }
  }

  @Test("a subscriber keeps a dropped composition following its source")
  func subscriberKeepsComposition() {
    let source = MutableProperty(1)
    var mapped: Property<Int>? = source.map { $0 * 3 }
    let recorder = mapped!.record()
    mapped = nil
    source.value = 2
    #expect(recorder.values == [3, 6])
    recorder.cancel()
  }

  // The original CombineEx's PropertyTests.testPropertyRetention: subscribers of a composition
  // keep its stream going, not the property objects it was made from.
  @Test("a subscriber of a composition keeps its stream going, not its source objects")
  func subscriberDoesNotKeepSourceObjects() {
    let readings = PassthroughSubject<Int, Never>()
    weak var weakSource: Property<Int>?
    weak var weakMapped: Property<Int>?
    var recorder: TestSubscriber<Int, Never>?
    do {
      let source = Property(initial: 0, then: readings)
      weakSource = source
      let mapped = source.map { $0 * 2 }
      weakMapped = mapped
      recorder = mapped.record()
    }
    #expect(weakMapped == nil)
    #expect(weakSource == nil)
    readings.send(1)
    readings.send(2)
    #expect(recorder?.values == [0, 2, 4])
    recorder?.cancel()
  }

  @Test("a source that delivers its first value late: the composition starts from its value")
  func lateFirstValue() {
    let source = LateFirstValueProperty(1)
    let calls = Box(0)
    let mapped = source.map { value -> Int in
      calls.value += 1
      return value * 10
    }
    #expect(mapped.value == 10)  // computed from the source's value: the first one is late
    #expect(calls.value == 1)
    let recorder = mapped.record()
    source.deliverPending()  // the late first value follows
    source.source.value = 2
    #expect(mapped.value == 20)
    #expect(recorder.values == [10, 10, 20])
    #expect(calls.value == 3)
  }

  @Test("dropping a composition whose source has not attached it yet lets go of everything")
  func lateFirstValueDropped() {
    let source = LateFirstValueProperty(1)
    weak var weakMapped: Property<Int>?
    do {
      let mapped = source.map { $0 * 10 }
      weakMapped = mapped
    }
    #expect(weakMapped == nil)
    source.deliverPending()  // the relay refuses the late subscription: nothing is kept
    source.source.value = 2
    #expect(source.attached == 0)
  }

  @Test("stress: compositions made while other threads set the source end on its last value")
  func stressCreationDuringSets() async {
    let source = MutableProperty(0)
    let made = LockedBox<[Property<Int>]>([])
    await concurrentPerform(8) { thread in
      if thread.isMultiple(of: 2) {
        for index in 1...300 { source.value = thread * 10_000 + index }
      } else {
        for _ in 1...100 {
          let mapped = source.map { $0 * 2 }
          made.withLock { $0.append(mapped) }
        }
      }
    }
    let finalValue = source.value
    let maps = made.withLock { $0 }
    #expect(maps.count == 400)
    #expect(maps.allSatisfy { $0.value == finalValue * 2 })
  }
}

/// A property that attaches its subscribers only when told to: like a property busy delivering
/// on another thread, which attaches a new subscriber (and sends it the first value) when it is
/// done. Single-threaded tests only.
final class LateFirstValueProperty<Output>: PropertyProtocol {
  typealias Failure = Never

  let source: MutableProperty<Output>
  private var pending: [() -> Void] = []
  private(set) var attached = 0

  init(_ initial: Output) {
    source = MutableProperty(initial)
  }

  var value: Output { source.value }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    pending.append { [source, self] in
      source.handleEvents(
        receiveSubscription: { _ in self.attached += 1 },
        receiveCancel: { self.attached -= 1 }
      ).receive(subscriber: subscriber)
    }
  }

  /// Attaches every subscriber waiting: each receives the current value.
  func deliverPending() {
    let waiting = pending
    pending = []
    for attach in waiting { attach() }
  }
}
