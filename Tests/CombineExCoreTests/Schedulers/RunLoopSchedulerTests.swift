import CombineExCore
import Foundation
import Testing

@Suite("RunLoop as a Scheduler")
struct RunLoopSchedulerTests {
  typealias Stride = RunLoop.SchedulerTimeType.Stride

  @Test("schedule runs the actions on the run loop's thread, in order")
  func runsInOrder() async {
    let thread = RunLoopThread()
    defer { thread.stop() }
    let log = Log<Int>()
    let onThread = Log<Bool>()
    let done = Flag()
    let runLoop = thread.runLoop!
    for value in 0..<20 {
      runLoop.schedule {
        onThread.append(RunLoop.current === runLoop)
        log.append(value)
        if value == 19 { done.raise() }
      }
    }
    #expect(await done.wait())
    #expect(log.values == Array(0..<20))
    #expect(onThread.values.allSatisfy { $0 })
  }

  @Test("schedule(after:) runs after the requested time, in due order")
  func runsAfterDate() async {
    await expectScheduleAfterRunsInDueOrder {
      let thread = RunLoopThread()
      return (thread.runLoop!, thread.stop)
    }
  }

  @Test("repeating work repeats until cancelled")
  func repeatingStops() async {
    let thread = RunLoopThread()
    defer { thread.stop() }
    let runLoop = thread.runLoop!
    let count = Log<Int>()
    let reachedThree = Flag()
    let cancellable = runLoop.schedule(
      after: runLoop.now.advanced(by: .milliseconds(1)), interval: .milliseconds(2)
    ) {
      count.append(1)
      if count.count == 3 { reachedThree.raise() }
    }
    #expect(await reachedThree.wait())
    let countAtCancel = Log<Int>()
    let marker = Flag()
    runLoop.schedule {
      cancellable.cancel()
      countAtCancel.append(count.count)
      runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(10))) { marker.raise() }
    }
    #expect(await marker.wait())
    #expect(count.count == countAtCancel.values.first)
  }

  @Test("strides are seconds")
  func strides() throws {
    #expect(Stride.seconds(2).timeInterval == 2)
    #expect(Stride.seconds(0.5).magnitude == 0.5)
    #expect(Stride.milliseconds(250).timeInterval == 0.25)
    #expect(Stride.microseconds(1).timeInterval == 1e-6)
    #expect(Stride.nanoseconds(1).timeInterval == 1e-9)
    let literal: Stride = 3
    #expect(literal == .seconds(3))
    #expect(Stride(exactly: 4) == .seconds(4))
    #expect((Stride.seconds(1) + .seconds(2)) * 2 == .seconds(6))
    #expect(Stride.seconds(1) - .seconds(3) == .seconds(-2))
    let start = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 100))
    #expect(start.advanced(by: .seconds(5)).date == Date(timeIntervalSince1970: 105))
    #expect(start.distance(to: start.advanced(by: .seconds(5))) == .seconds(5))
    let decoded = try JSONDecoder().decode(
      RunLoop.SchedulerTimeType.self, from: JSONEncoder().encode(start))
    #expect(decoded == start)
    #expect(RunLoop.main.minimumTolerance == 0)
  }
}
