import CombineExCore
import CombineExTesting
import Dispatch
import Foundation
import Testing

@Suite("DispatchQueue as a Scheduler")
struct DispatchQueueSchedulerTests {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride

  @Test("schedule runs the action on the queue, in order")
  func runsOnQueueInOrder() async {
    let queue = DispatchQueue(label: "scheduler")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let log = Log<Int>()
    let onQueue = Log<Bool>()
    let done = Flag()
    for value in 0..<50 {
      queue.schedule {
        onQueue.append(DispatchQueue.getSpecific(key: key) == true)
        log.append(value)
        if value == 49 { done.raise() }
      }
    }
    #expect(await done.wait())
    #expect(log.values == Array(0..<50))
    #expect(onQueue.values.allSatisfy { $0 })
  }

  @Test("schedule(after:) runs after the requested time, in due order")
  func runsAfterDate() async {
    await expectScheduleAfterRunsInDueOrder {
      (DispatchQueue(label: "scheduler-after"), {})
    }
  }

  @Test("the options' group is entered until scheduled work has run")
  func groupOption() async {
    let queue = DispatchQueue(label: "scheduler-group")
    let group = DispatchGroup()
    let log = Log<String>()
    queue.schedule(options: .init(qos: .utility, group: group)) { log.append("now") }
    queue.schedule(
      after: queue.now.advanced(by: .milliseconds(5)), tolerance: .zero,
      options: .init(group: group)
    ) { log.append("later") }
    let done = Flag()
    group.notify(queue: .global()) { done.raise() }
    #expect(await done.wait())
    #expect(log.values == ["now", "later"])
  }

  @Test("repeating work repeats on the queue until cancelled")
  func repeatingStopsWhenCancelled() async {
    let queue = DispatchQueue(label: "scheduler-repeat")
    let count = Log<Int>()
    let reachedThree = Flag()
    let cancellable = queue.schedule(
      after: queue.now.advanced(by: .milliseconds(1)), interval: .milliseconds(2)
    ) {
      count.append(1)
      if count.count == 3 { reachedThree.raise() }
    }
    #expect(await reachedThree.wait())
    // Cancel on the queue itself, then wait (with work on the same queue) past several
    // intervals: nothing more runs.
    let countAtCancel = Log<Int>()
    let marker = Flag()
    queue.schedule {
      cancellable.cancel()
      countAtCancel.append(count.count)
      queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { marker.raise() }
    }
    #expect(await marker.wait())
    #expect(count.count == countAtCancel.values.first)
    #expect(count.count >= 3)
  }

  @Test("now is DispatchTime.now() and the minimum tolerance is zero")
  func nowAndTolerance() {
    let before = DispatchTime.now()
    let now = DispatchQueue.main.now.dispatchTime
    #expect(now >= before)
    #expect(DispatchQueue.main.minimumTolerance == .zero)
  }

  @Test("strides are nanoseconds; literals are seconds")
  func strides() {
    #expect(Stride.seconds(2).magnitude == 2_000_000_000)
    #expect(Stride.seconds(0.5).magnitude == 500_000_000)
    #expect(Stride.milliseconds(3).magnitude == 3_000_000)
    #expect(Stride.microseconds(3).magnitude == 3_000)
    #expect(Stride.nanoseconds(3).magnitude == 3)
    let literal: Stride = 2
    let floating: Stride = 0.25
    #expect(literal == .seconds(2))
    #expect(floating == .milliseconds(250))
    #expect(Stride(exactly: 3) == .seconds(3))
    #expect(Stride(.milliseconds(7)) == .milliseconds(7))
    #expect(Stride(.seconds(1)).timeInterval == .nanoseconds(1_000_000_000))
    #expect(Stride.seconds(1) + .milliseconds(1) == .nanoseconds(1_001_000_000))
    #expect(Stride.seconds(1) - .seconds(2) == .seconds(-1))
    #expect(Stride.seconds(Int.max) == .nanoseconds(Int.max))
    #expect(Stride.milliseconds(1) < .seconds(1))
  }

  @Test("times advance and measure distances by their strides")
  func times() throws {
    let start = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000))
    let later = start.advanced(by: .microseconds(5))
    #expect(later.dispatchTime.uptimeNanoseconds == 6_000)
    #expect(start.distance(to: later) == .microseconds(5))
    #expect(later.distance(to: start) == .microseconds(-5))
    #expect(start < later)
    let encoded = try JSONEncoder().encode(later)
    #expect(try JSONDecoder().decode(DispatchQueue.SchedulerTimeType.self, from: encoded) == later)
    let stride = try JSONDecoder().decode(
      Stride.self, from: JSONEncoder().encode(Stride.seconds(3)))
    #expect(stride == .seconds(3))
  }

  @Test("a distance too long for a stride is .nanoseconds(.max), in both directions")
  func distanceSaturates() {
    let early = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 10_000))
    let never = DispatchQueue.SchedulerTimeType(.distantFuture)
    let int64Max = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(Int.max)))
    #expect(early.distance(to: never) == .nanoseconds(.max))
    #expect(never.distance(to: early) == .nanoseconds(.max))
    #expect(never.distance(to: never) == .nanoseconds(0))
    #expect(early.distance(to: int64Max) == .nanoseconds(.max - 10_000))
    #expect(int64Max.distance(to: early) == .nanoseconds(-(.max - 10_000)))
  }

  @Test("advancing by .nanoseconds(.max), or past the last uptime, gives .distantFuture")
  func advancedSaturates() {
    let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 10_000))
    #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
    #expect(time.advanced(by: Stride(.never)).dispatchTime == .distantFuture)
    let never = DispatchQueue.SchedulerTimeType(.distantFuture)
    #expect(never.advanced(by: .seconds(-1)).dispatchTime == .distantFuture)
    let late = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: .max - 10))
    #expect(late.advanced(by: .nanoseconds(20)).dispatchTime == .distantFuture)
    let first = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))
    #expect(first.advanced(by: .nanoseconds(-1_000)).dispatchTime.uptimeNanoseconds == 1)
  }

  @Test("a stride encodes as Combine's {\"_nanoseconds\": n}")
  func strideCodingKey() throws {
    struct Wrapper: Codable, Equatable { let value: Stride }
    let encoded = try JSONEncoder().encode(Wrapper(value: .nanoseconds(419_872)))
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"_nanoseconds":419872}}"#)
    #expect(
      try JSONDecoder().decode(Wrapper.self, from: encoded) == Wrapper(value: .nanoseconds(419_872))
    )
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Wrapper.self, from: Data(#"{"value":{"magnitude":1}}"#.utf8))
    }
  }

  @Test("multiplying two strides gives zero, as in Combine")
  func strideMultiplicationIsZero() {
    #expect(Stride.nanoseconds(15) * .nanoseconds(2) == .zero)
    #expect(Stride.seconds(2) * 3 == .zero)
    var stride = Stride.microseconds(-3)
    stride *= .nanoseconds(10)
    #expect(stride == .zero)
    #expect(Stride.nanoseconds(Stride.seconds(2).magnitude * 3) == .seconds(6))
  }

  @Test("repeating work returns an AnyCancellable, and releasing it stops the work")
  func repeatingStopsWhenReleased() async {
    let queue = DispatchQueue(label: "scheduler-repeat-release")
    let count = Log<Int>()
    let reachedThree = Flag()
    var cancellable: (any Cancellable)? = queue.schedule(
      after: queue.now.advanced(by: .milliseconds(1)), interval: .milliseconds(2)
    ) {
      count.append(1)
      if count.count == 3 { reachedThree.raise() }
    }
    #expect(cancellable is AnyCancellable)
    #expect(await reachedThree.wait())
    let holder = LockedBox(cancellable)
    cancellable = nil
    // Release on the queue itself, then wait (with work on the same queue) past several
    // intervals: nothing more runs.
    let countAtRelease = Log<Int>()
    let marker = Flag()
    queue.schedule {
      holder.withLock { $0 = nil }
      countAtRelease.append(count.count)
      queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { marker.raise() }
    }
    #expect(await marker.wait())
    #expect(count.count == countAtRelease.values.first)
  }
}
