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

  @Test("schedule makes one addOperation call, with a BlockOperation")
  func scheduleAddsOneBlockOperation() async {
    let queue = RecordingOperationQueue()
    let ran = Flag()
    queue.schedule { ran.raise() }
    #expect(queue.calls == ["addOperation"])
    #expect(queue.added.first is BlockOperation)
    #expect(await ran.wait())
  }

  @Test("schedule(after:) adds its operation at once; it becomes ready at the date")
  func scheduleAfterAddsAtOnce() async {
    let queue = RecordingOperationQueue()
    let start = queue.now
    let ranAt = Log<OperationQueue.SchedulerTimeType>()
    let ran = Flag()
    queue.schedule(after: start.advanced(by: .milliseconds(50))) {
      ranAt.append(queue.now)
      ran.raise()
    }
    #expect(queue.calls == ["addOperation"])
    let operation = queue.added.first
    #expect(!(operation is BlockOperation))
    #expect(operation is any Cancellable)
    #expect(operation?.isReady == false)
    #expect(operation?.isFinished == false)
    #expect(ranAt.count == 0)
    #expect(await ran.wait())
    #expect(start.distance(to: ranAt.values[0]) >= .milliseconds(50))
    // Its action runs once: running the operation again does nothing.
    operation?.main()
    #expect(ranAt.count == 1)
    #expect(queue.calls == ["addOperation"])
  }

  @Test("an operation scheduled for later leaves the queue at once when cancelled")
  func cancelledDelayedOperationLeaves() async {
    let queue = RecordingOperationQueue()
    let ran = Log<Int>()
    queue.schedule(after: queue.now.advanced(by: .seconds(60))) { ran.append(1) }
    queue.cancelAllOperations()
    let emptied = Flag()
    // A barrier runs once every operation added before it has finished.
    queue.addBarrierBlock { emptied.raise() }
    #expect(await emptied.wait(timeout: .seconds(10)))
    #expect(queue.added.first?.isCancelled == true)
    queue.added.first?.main()
    #expect(ran.count == 0)
  }

  @Test("repeating work adds one operation per tick, each before the action runs")
  func repeatingAddsOneOperationPerTick() async {
    let queue = RecordingOperationQueue()
    queue.maxConcurrentOperationCount = 1
    let addedWhenRun = Log<Int>()
    let reachedThree = Flag()
    // The first tick is half a second away, so that the checks below, made before it, do not
    // depend on this thread reaching them within a millisecond (it did not, on a loaded machine).
    let cancellable = queue.schedule(
      after: queue.now.advanced(by: .milliseconds(500)), interval: .milliseconds(2)
    ) {
      addedWhenRun.append(queue.added.count)
      if addedWhenRun.count == 3 { reachedThree.raise() }
    }
    #expect(cancellable is AnyCancellable)
    #expect(queue.added.count == 1)
    #expect(queue.added.first?.isReady == false)
    #expect(!(queue.added.first is BlockOperation))
    #expect(await reachedThree.wait())
    cancellable.cancel()
    #expect(Array(addedWhenRun.values.prefix(3)) == [2, 3, 4])
    // The operation waiting for the next tick is cancelled, and leaves the queue at once.
    let emptied = Flag()
    queue.addBarrierBlock { emptied.raise() }
    #expect(await emptied.wait(timeout: .seconds(10)))
    #expect(queue.added.last?.isCancelled == true)
  }

  @Test("releasing the cancellable of repeating work stops it")
  func repeatingStopsWhenReleased() async {
    let queue = serialQueue()
    let count = Log<Int>()
    let reachedThree = Flag()
    let holder = LockedBox<(any Cancellable)?>(nil)
    holder.withLock {
      $0 = queue.schedule(
        after: queue.now.advanced(by: .milliseconds(1)), interval: .milliseconds(2)
      ) {
        count.append(1)
        if count.count == 3 { reachedThree.raise() }
      }
    }
    #expect(await reachedThree.wait())
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

/// An operation queue that records the calls a scheduler makes to add work to it.
private final class RecordingOperationQueue: OperationQueue, @unchecked Sendable {
  // @unchecked Sendable: `log` is guarded by `lock`; `OperationQueue` is thread-safe.
  private let lock = NSLock()
  private var log: [(call: String, operation: Operation?)] = []

  var calls: [String] { lock.withLock { log.map(\.call) } }
  var added: [Operation] { lock.withLock { log.compactMap(\.operation) } }

  override func addOperation(_ op: Operation) {
    lock.withLock { log.append(("addOperation", op)) }
    super.addOperation(op)
  }

  override func addOperations(_ ops: [Operation], waitUntilFinished wait: Bool) {
    lock.withLock { log.append(("addOperations", nil)) }
    super.addOperations(ops, waitUntilFinished: wait)
  }

  override func addOperation(_ block: @escaping @Sendable () -> Void) {
    lock.withLock { log.append(("addOperation(block)", nil)) }
    super.addOperation(block)
  }
}
