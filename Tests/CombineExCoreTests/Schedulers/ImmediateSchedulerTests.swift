import CombineExCore
import Testing

@Suite("ImmediateScheduler")
struct ImmediateSchedulerTests {
  let scheduler = ImmediateScheduler.shared

  @Test("schedule runs the action before returning")
  func runsAtOnce() {
    var log: [String] = []
    scheduler.schedule { log.append("action") }
    log.append("after")
    #expect(log == ["action", "after"])
  }

  @Test("schedule(after:) ignores the date and runs at once")
  func ignoresDate() {
    var ran = false
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(100))) { ran = true }
    #expect(ran)
  }

  @Test("repeating work runs once, and its cancellable does nothing")
  func repeatingRunsOnce() {
    var count = 0
    let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
      count += 1
    }
    cancellable.cancel()
    #expect(count == 1)
  }

  @Test("time never moves: every distance is zero")
  func timeDoesNotMove() {
    let now = scheduler.now
    let later = now.advanced(by: 10)
    #expect(now.distance(to: later) == 0)
    #expect(now == later)
    #expect(scheduler.minimumTolerance == 0)
  }

  @Test("stride conversions are zero; literals and arithmetic keep their value")
  func strides() {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
    #expect(Stride.seconds(5) == 0)
    #expect(Stride.seconds(2.5) == 0)
    #expect(Stride.milliseconds(5) == 0)
    #expect(Stride.microseconds(5) == 0)
    #expect(Stride.nanoseconds(5) == 0)
    let three: Stride = 3
    #expect(three.magnitude == 3)
    #expect((three + 2).magnitude == 5)
    #expect((three - 5).magnitude == -2)
    #expect((three * 2).magnitude == 6)
    #expect(Stride(exactly: UInt64.max) == nil)
    #expect(Stride(1) < Stride(2))
  }
}
