import CombineEx
import Foundation
import Synchronization
import Testing

/// `value` of an eager property (a composition, `init(initial:then:)`) read from other threads
/// while its source changes. A value of a trivial type that fits one word is read with one
/// atomic load, without the cell's lock; any other value under the lock. Either way a read
/// returns a value the property was given (intact), never older than the last set that returned
/// before the read began, never older than an earlier read of the same thread; the transform
/// runs once per change and a subscriber receives every value once, in order.
@Suite("Property value read while its source changes")
struct PropertyValueReadStressTests {
  @Test(
    "stress: a word-sized map read from other threads is intact, latest and ordered",
    arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
  func stressWordSizedMapReadsRaceSets(seed: UInt64) async {
    let source = MutableProperty(0)
    let made = ValueCount()
    let mapped = source.map { index -> Stamp in
      made.add()
      return Stamp(index)
    }
    await raceReads(
      of: mapped, seed: seed, made: made, set: { source.value = $0 }, index: { $0.index })
  }

  @Test(
    "stress: a map to strings read from other threads is intact, latest and ordered",
    arguments: [0x5EED_0011, 0x5EED_0012] as [UInt64])
  func stressStringMapReadsRaceSets(seed: UInt64) async {
    let source = MutableProperty(0)
    let made = ValueCount()
    let mapped = source.map { index -> String in
      made.add()
      return "#\(index)"
    }
    await raceReads(
      of: mapped, seed: seed, made: made, set: { source.value = $0 },
      index: { $0.hasPrefix("#") ? Int($0.dropFirst()) : nil })
  }

  @Test(
    "stress: an observed property following a subject, read from other threads, is latest",
    arguments: [0x5EED_0021, 0x5EED_0022] as [UInt64])
  func stressObservedFollowerReadsRaceSends(seed: UInt64) async {
    // Not a fused map: the property's own core delivers (its observed path stores the value).
    let readings = PassthroughSubject<Int, Never>()
    let made = ValueCount()
    made.add()  // the initial value
    let latest = Property(
      initial: Stamp(0),
      then: readings.map { index -> Stamp in
        made.add()
        return Stamp(index)
      })
    await raceReads(
      of: latest, seed: seed, made: made, set: { readings.send($0) }, index: { $0.index })
  }

  /// Sets the source to 1 ... `count` on one thread (with pauses at seeded places) while three
  /// others read `property.value` until they have read the last value, and checks every read
  /// and every delivery to a sink against what had been set and made at the time.
  private func raceReads<Output: Sendable & Equatable>(
    of property: Property<Output>, seed: UInt64, made: ValueCount,
    set: @escaping @Sendable (Int) -> Void, index: @escaping @Sendable (Output) -> Int?
  ) async {
    let count = 2_000
    let setReturned = ValueCount()
    let failures = LockedBox<[String]>([])
    let log = DeliveryLog<Int>()
    let cancellable = property.sink { log.receive(index($0) ?? -1) }
    await concurrentPerform(4) { thread in
      var generator = SplitMix(seed: seed &+ UInt64(thread))
      guard thread != 0 else {
        for value in 1...count {
          set(value)
          setReturned.set(value)
          if generator.next() % 32 == 0 { sched_yield() }
        }
        return
      }
      var previous = 0
      while true {
        let floor = setReturned.value
        let read = property.value
        let ceiling = made.value - 1  // the last value made when the read returned
        guard let readIndex = index(read) else {
          failures.withLock { $0.append("seed \(seed): read \(read), not a value made") }
          return
        }
        if readIndex < floor || readIndex > ceiling || readIndex < previous {
          failures.withLock {
            $0.append(
              "seed \(seed): read \(readIndex) after set \(floor) returned, \(ceiling) made, "
                + "\(previous) read before")
          }
          return
        }
        previous = readIndex
        if floor == count { return }  // read after the last set returned: the last value
        if generator.next() % 16 == 0 { sched_yield() }
      }
    }
    #expect(failures.withLock { $0 } == [])
    #expect(made.value == count + 1, "the transform ran once per value (seed \(seed))")
    #expect(log.values == Array(0...count), "the sink received every value once, in order")
    #expect(log.overlaps == 0)
    #expect(index(property.value) == count)
    cancellable.cancel()
  }
}

/// A mapped value of one word with a check of its own bits: a read that mixed two writes, or
/// decoded the word wrongly, is not intact.
private struct Stamp: Equatable, Sendable, CustomStringConvertible {
  let low: UInt32
  let check: UInt32

  init(_ index: Int) {
    low = UInt32(index)
    check = ~low &* 2_654_435_761
  }

  /// The index, or `nil` if the bits are not a stamp's.
  var index: Int? { check == ~low &* 2_654_435_761 ? Int(low) : nil }

  var description: String { "Stamp(\(low), \(check))" }
}

/// A counter shared by the threads of a race, without a lock (which would order the threads
/// and hide what the race looks for).
private final class ValueCount: Sendable {
  private let count = Atomic<Int>(0)

  var value: Int { count.load(ordering: .acquiring) }

  func add() { count.add(1, ordering: .acquiringAndReleasing) }

  func set(_ value: Int) { count.store(value, ordering: .releasing) }
}

/// SplitMix64: a seedable generator, so that a failing run can be replayed from its seed.
private struct SplitMix {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
