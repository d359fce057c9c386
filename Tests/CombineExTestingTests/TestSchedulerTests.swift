import CombineExCore
import CombineExTesting
import Dispatch
import Foundation
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
  @Test("work scheduled now runs on the next advance, not before")
  func scheduledNowRunsOnAdvance() {
    let scheduler = DispatchQueue.test
    var ran = false
    scheduler.schedule { ran = true }
    #expect(!ran)
    scheduler.advance()
    #expect(ran)
  }

  @Test("work scheduled later runs exactly when virtual time reaches it")
  func runsAtDueTime() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    var ranAt: DispatchQueue.SchedulerTimeType?
    scheduler.schedule(after: start.advanced(by: .seconds(2))) { ranAt = scheduler.now }
    scheduler.advance(by: .milliseconds(1999))
    #expect(ranAt == nil)
    scheduler.advance(by: .milliseconds(1))
    #expect(ranAt == start.advanced(by: .seconds(2)))
  }

  @Test("work runs in due-time order, whatever the order it was scheduled in")
  func dueTimeOrder() {
    let scheduler = DispatchQueue.test
    var log: [Int] = []
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3))) { log.append(3) }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append(1) }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append(2) }
    scheduler.advance(by: .seconds(3))
    #expect(log == [1, 2, 3])
  }

  @Test("work with equal due times runs first-in first-out")
  func equalDueTimesFIFO() {
    let scheduler = DispatchQueue.test
    let due = scheduler.now.advanced(by: .seconds(1))
    var log: [Int] = []
    for value in 0..<10 {
      scheduler.schedule(after: due) { log.append(value) }
    }
    scheduler.advance(by: .seconds(1))
    #expect(log == Array(0..<10))
  }

  @Test("work scheduled during an advance runs in the same call when it falls inside the window")
  func nestedWorkInsideWindow() {
    let scheduler = DispatchQueue.test
    var log: [String] = []
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
      log.append("outer at 1")
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
        log.append("inner at 2")
      }
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {
        log.append("inner at 6")
      }
    }
    scheduler.advance(by: .seconds(3))
    #expect(log == ["outer at 1", "inner at 2"])
    scheduler.advance(by: .seconds(3))
    #expect(log == ["outer at 1", "inner at 2", "inner at 6"])
  }

  @Test("work scheduled now from inside work runs in the same advance, after the current one")
  func nestedImmediateWork() {
    let scheduler = DispatchQueue.test
    var log: [Int] = []
    scheduler.schedule {
      log.append(1)
      scheduler.schedule { log.append(3) }
      log.append(2)
    }
    scheduler.advance()
    #expect(log == [1, 2, 3])
  }

  @Test("now is the due time of the work that runs, and the target after an advance")
  func nowDuringAdvance() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    var seen: [Int] = []
    for seconds in [1, 4] {
      scheduler.schedule(after: start.advanced(by: .seconds(seconds))) {
        seen.append(start.distance(to: scheduler.now).magnitude / 1_000_000_000)
      }
    }
    scheduler.advance(by: .seconds(10))
    #expect(seen == [1, 4])
    #expect(start.distance(to: scheduler.now) == .seconds(10))
  }

  @Test("now never moves backwards")
  func neverBackwards() {
    let scheduler = DispatchQueue.test
    scheduler.advance(by: .seconds(5))
    let later = scheduler.now
    scheduler.advance(to: later.advanced(by: .seconds(-3)))
    #expect(scheduler.now == later)
    scheduler.advance(by: .seconds(-1))
    #expect(scheduler.now == later)
  }

  @Test("work scheduled in the past runs at the current time on the next advance")
  func pastWorkRunsNow() {
    let scheduler = DispatchQueue.test
    scheduler.advance(by: .seconds(5))
    let now = scheduler.now
    var ranAt: DispatchQueue.SchedulerTimeType?
    scheduler.schedule(after: now.advanced(by: .seconds(-2))) { ranAt = scheduler.now }
    scheduler.advance()
    #expect(ranAt == now)
  }

  @Test("advance(to:) runs everything due by the instant")
  func advanceTo() {
    let scheduler = RunLoop.test
    let start = scheduler.now
    var log: [Int] = []
    scheduler.schedule(after: start.advanced(by: .seconds(1))) { log.append(1) }
    scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append(2) }
    scheduler.advance(to: start.advanced(by: .seconds(1)))
    #expect(log == [1])
    #expect(scheduler.now == start.advanced(by: .seconds(1)))
  }

  @Test("repeating work runs at its start and then every interval")
  func repeatingWork() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    var times: [Int] = []
    let cancellable = scheduler.schedule(
      after: start.advanced(by: .seconds(1)), interval: .seconds(2)
    ) {
      times.append(start.distance(to: scheduler.now).magnitude / 1_000_000_000)
    }
    scheduler.advance(by: .seconds(6))
    #expect(times == [1, 3, 5])
    cancellable.cancel()
  }

  @Test("cancelling repeating work stops it and removes it")
  func cancelRepeating() {
    let scheduler = DispatchQueue.test
    var count = 0
    let cancellable = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
    ) { count += 1 }
    scheduler.advance(by: .seconds(2))
    #expect(count == 2)
    cancellable.cancel()
    #expect(scheduler.pendingWorkCount == 0)
    scheduler.advance(by: .seconds(10))
    #expect(count == 2)
  }

  @Test("repeating work can cancel itself from inside its action")
  func cancelFromInside() {
    let scheduler = DispatchQueue.test
    var count = 0
    var cancellable: (any Cancellable)?
    cancellable = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
    ) {
      count += 1
      if count == 3 { cancellable?.cancel() }
    }
    scheduler.advance(by: .seconds(10))
    #expect(count == 3)
  }

  @Test("repeating work with a zero interval runs once per advance")
  func zeroIntervalRepeating() {
    let scheduler = DispatchQueue.test
    var count = 0
    let cancellable = scheduler.schedule(after: scheduler.now, interval: .zero) { count += 1 }
    scheduler.advance()
    #expect(count == 1)
    scheduler.advance()
    #expect(count == 2)
    cancellable.cancel()
  }

  @Test("run() runs every piece of work and moves time to the last one")
  func runEverything() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    var log: [Int] = []
    scheduler.schedule(after: start.advanced(by: .seconds(100))) {
      log.append(100)
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(50))) { log.append(150) }
    }
    scheduler.schedule(after: start.advanced(by: .seconds(1))) { log.append(1) }
    scheduler.run()
    #expect(log == [1, 100, 150])
    #expect(start.distance(to: scheduler.now) == .seconds(150))
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("run() with endless repeating work stops at its limit and records an issue")
  func runWithRepeatingWork() {
    let scheduler = DispatchQueue.test
    var count = 0
    let cancellable = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
    ) { count += 1 }
    withKnownIssue {
      scheduler.run(limit: 50)
    }
    #expect(count == 50)
    cancellable.cancel()
  }

  @Test("RunLoop.test and OperationQueue.test start at the reference date, for exact strides")
  func foundationTestSchedulers() {
    #expect(RunLoop.test.now.date == Date(timeIntervalSinceReferenceDate: 0))
    #expect(OperationQueue.test.now.date == Date(timeIntervalSinceReferenceDate: 0))
    let scheduler = RunLoop.test
    let start = scheduler.now
    scheduler.advance(by: .milliseconds(10))
    #expect(start.distance(to: scheduler.now) == .milliseconds(10))
  }

  @Test("OperationQueue.test runs delayed work at its time")
  func operationQueueTest() {
    let scheduler = OperationQueue.test
    var ran = false
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(500))) { ran = true }
    scheduler.advance(by: .milliseconds(499))
    #expect(!ran)
    scheduler.advance(by: .milliseconds(1))
    #expect(ran)
  }

  @Test("ImmediateScheduler.test runs everything, in order, on the next advance")
  func immediateTest() {
    let scheduler = ImmediateScheduler.test
    var log: [Int] = []
    scheduler.schedule { log.append(1) }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { log.append(2) }
    scheduler.schedule { log.append(3) }
    #expect(log.isEmpty)
    scheduler.advance()
    #expect(log == [1, 2, 3])
  }

  @Test("ImmediateScheduler.test runs repeating work once per advance")
  func immediateRepeating() {
    let scheduler = ImmediateScheduler.test
    var count = 0
    let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
      count += 1
    }
    scheduler.advance()
    scheduler.advance()
    #expect(count == 2)
    cancellable.cancel()
  }

  @Test("TestSchedulerOf names the test scheduler of a scheduler type")
  func typealiasSpelling() {
    let scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
    let generic: some Scheduler<DispatchQueue.SchedulerTimeType> = scheduler
    #expect(generic.minimumTolerance == .zero)
  }

  @Test("stress: work scheduled from many threads all runs, each exactly once")
  func stressConcurrentScheduling() async {
    let scheduler = DispatchQueue.test
    let counter = Counter()
    await concurrentPerform(8) { thread in
      for index in 0..<250 {
        scheduler.schedule(
          after: scheduler.now.advanced(by: .milliseconds(index % 7))
        ) { counter.increment(thread * 1000 + index) }
      }
    }
    scheduler.advance(by: .seconds(1))
    #expect(counter.count == 2000)
    #expect(counter.distinct == 2000)
  }
}

/// Counts values from any thread.
private final class Counter: @unchecked Sendable {
  // @unchecked Sendable: `values` is guarded by `lock`.
  private let lock = NSLock()
  private var values: [Int] = []

  func increment(_ value: Int) { lock.withLock { values.append(value) } }
  var count: Int { lock.withLock { values.count } }
  var distinct: Int { lock.withLock { Set(values).count } }
}
