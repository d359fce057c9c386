import CombineEx
import CombineExTesting
import Foundation
import Testing

/// 8 threads set the source properties while a subscriber observes the derived property:
/// deliveries must be serial and the final value consistent with the sources.
@Suite("Property composition under concurrency")
struct PropertyCompositionStressTests {
  static let threads = 8
  static let setsPerThread = 500

  @Test("stress: map delivers serially and ends on the source's last value")
  func stressMap() async {
    let source = MutableProperty(0)
    let mapped = source.map { $0 * 2 }
    let log = DeliveryLog<Int>()
    let cancellable = mapped.sink { log.receive($0) }
    await concurrentPerform(Self.threads) { thread in
      for index in 1...Self.setsPerThread { source.value = thread * 10_000 + index }
    }
    #expect(log.overlaps == 0)
    #expect(log.values.count == Self.threads * Self.setsPerThread + 1)
    #expect(log.values.last == mapped.value)
    #expect(mapped.value == source.value * 2)
    cancellable.cancel()
  }

  @Test("stress: removeDuplicates(by:) delivers serially, never the same value twice in a row")
  func stressRemoveDuplicates() async {
    let source = MutableProperty(0)
    let distinct = source.removeDuplicates(by: ==)
    let log = DeliveryLog<Int>()
    let cancellable = distinct.sink { log.receive($0) }
    await concurrentPerform(Self.threads) { thread in
      for index in 1...Self.setsPerThread { source.value = index % 3 + thread % 2 }
    }
    let values = log.values
    #expect(log.overlaps == 0)
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 })
    #expect(values.last == distinct.value)
    #expect(distinct.value == source.value)
    cancellable.cancel()
  }

  @Test("stress: filter(initial:) delivers serially and ends on the last included value")
  func stressFilter() async {
    let source = MutableProperty(0)
    let even = source.filter(initial: 0) { $0.isMultiple(of: 2) }
    let log = DeliveryLog<Int>()
    let cancellable = even.sink { log.receive($0) }
    await concurrentPerform(Self.threads) { thread in
      for index in 1...Self.setsPerThread { source.value = thread * 10_000 + index }
      source.value = thread * 10_000  // every thread ends with an even value
    }
    #expect(log.overlaps == 0)
    #expect(log.values.allSatisfy { $0.isMultiple(of: 2) })
    #expect(log.values.last == even.value)
    #expect(even.value == source.value)
    cancellable.cancel()
  }

  @Test("stress: combinePrevious delivers serially, each pair chained to the one before")
  func stressCombinePrevious() async {
    let source = MutableProperty(0)
    let moves = source.combinePrevious(-1)
    let log = DeliveryLog<[Int]>()
    let cancellable = moves.sink { log.receive([$0, $1]) }
    await concurrentPerform(Self.threads) { thread in
      for index in 1...Self.setsPerThread { source.value = thread * 10_000 + index }
    }
    let pairs = log.values
    #expect(log.overlaps == 0)
    #expect(pairs.count == Self.threads * Self.setsPerThread + 1)
    #expect(zip(pairs, pairs.dropFirst()).allSatisfy { $0[1] == $1[0] })
    #expect(pairs.last == [moves.value.0, moves.value.1])
    #expect(moves.value.1 == source.value)
    cancellable.cancel()
  }

  @Test("stress: flatMap delivers serially and ends on the latest inner property's value")
  func stressFlatMap() async {
    let inners = (0..<4).map { MutableProperty($0 * 1_000) }
    let selected = MutableProperty(0)
    let followed = selected.flatMap { inners[$0] }
    let log = DeliveryLog<Int>()
    let cancellable = followed.sink { log.receive($0) }
    await concurrentPerform(Self.threads) { thread in
      for index in 1...Self.setsPerThread {
        if thread < 2 {
          selected.value = index % inners.count
        } else {
          inners[thread % inners.count].value = thread * 10_000 + index
        }
      }
    }
    #expect(log.overlaps == 0)
    #expect(log.values.last == followed.value)
    #expect(followed.value == inners[selected.value].value)
    cancellable.cancel()
  }

  @Test("stress: combineLatest delivers serially and ends on every source's last value")
  func stressCombineLatest() async {
    let sources = (0..<4).map { MutableProperty($0) }
    let combined = sources.combineLatest()
    let log = DeliveryLog<[Int]>()
    let cancellable = combined.sink { log.receive($0) }
    await concurrentPerform(Self.threads) { thread in
      for index in 1...Self.setsPerThread {
        sources[thread % sources.count].value = thread * 10_000 + index
      }
    }
    #expect(log.overlaps == 0)
    #expect(log.values.count == Self.threads * Self.setsPerThread + 1)
    #expect(log.values.last == sources.map(\.value))
    #expect(combined.value == sources.map(\.value))
    cancellable.cancel()
  }

  @Test("stress: a tuple combineLatest delivers serially to several subscribers")
  func stressCombineLatestTuple() async {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    let combined = a.combineLatest(with: b)
    let logs = [DeliveryLog<[Int]>(), DeliveryLog<[Int]>()]
    let cancellables = logs.map { log in combined.sink { log.receive([$0, $1]) } }
    await concurrentPerform(Self.threads) { thread in
      for index in 1...Self.setsPerThread {
        if thread.isMultiple(of: 2) { a.value = index } else { b.value = index }
      }
    }
    for log in logs {
      #expect(log.overlaps == 0)
      #expect(log.values.last == [a.value, b.value])
    }
    cancellables.forEach { $0.cancel() }
  }

  @Test("stress: zip delivers serially, pairs every value once, and ends on the last pair")
  func stressZip() async {
    let a = MutableProperty(0)
    let b = MutableProperty(0)
    let zipped = [a, b].zip()
    let log = DeliveryLog<[Int]>()
    let cancellable = zipped.sink { log.receive($0) }
    await concurrentPerform(Self.threads) { thread in
      for index in 1...Self.setsPerThread {
        if thread.isMultiple(of: 2) { a.value = index } else { b.value = index }
      }
    }
    let pairs = log.values
    #expect(log.overlaps == 0)
    #expect(pairs.count == Self.threads / 2 * Self.setsPerThread + 1)
    #expect(pairs.last == [a.value, b.value])
    #expect(zipped.value == [a.value, b.value])
    cancellable.cancel()
  }
}
