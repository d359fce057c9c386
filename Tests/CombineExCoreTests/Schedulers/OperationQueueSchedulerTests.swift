import CombineExCore
import Foundation
import Testing

@Suite("OperationQueue as a Scheduler")
struct OperationQueueSchedulerTests {
  typealias Stride = OperationQueue.SchedulerTimeType.Stride

  func serialQueue() -> OperationQueue {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    return queue
  }

  @Test("schedule adds operations that run in order on a serial queue")
  func runsInOrder() async {
    let queue = serialQueue()
    let log = Log<Int>()
    let onQueue = Log<Bool>()
    let done = Flag()
    for value in 0..<20 {
      queue.schedule {
        onQueue.append(OperationQueue.current === queue)
        log.append(value)
        if value == 19 { done.raise() }
      }
    }
    #expect(await done.wait())
    #expect(log.values == Array(0..<20))
    #expect(onQueue.values.allSatisfy { $0 })
  }

  @Test("schedule(after:) runs after the requested time, in due order")
  func runsAfterDate() async {
    await expectScheduleAfterRunsInDueOrder { (serialQueue(), {}) }
  }

  @Test("repeating work repeats until cancelled")
  func repeatingStops() async {
    let queue = serialQueue()
    let count = Log<Int>()
    let reachedThree = Flag()
    let cancellable = queue.schedule(
      after: queue.now.advanced(by: .milliseconds(1)), interval: .milliseconds(2)
    ) {
      count.append(1)
      if count.count == 3 { reachedThree.raise() }
    }
    #expect(await reachedThree.wait())
    let countAtCancel = Log<Int>()
    let marker = Flag()
    queue.schedule {
      cancellable.cancel()
      countAtCancel.append(count.count)
      queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { marker.raise() }
    }
    #expect(await marker.wait())
    #expect(count.count == countAtCancel.values.first)
  }

  @Test("strides are seconds")
  func strides() {
    #expect(Stride.seconds(2).timeInterval == 2)
    #expect(Stride.milliseconds(500).timeInterval == 0.5)
    #expect(Stride.microseconds(1).timeInterval == 1e-6)
    #expect(Stride.nanoseconds(1).timeInterval == 1e-9)
    let literal: Stride = 1.5
    #expect(literal == .seconds(1.5))
    let start = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0))
    #expect(start.distance(to: start.advanced(by: .milliseconds(10))) == .milliseconds(10))
    #expect(OperationQueue.main.minimumTolerance == 0)
  }
}
