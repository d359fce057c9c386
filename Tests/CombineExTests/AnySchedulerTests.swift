import CombineEx
import CombineExTesting
import Dispatch
import Testing

@Suite("AnyScheduler")
struct AnySchedulerTests {
  @Test("forwards now, the tolerance and every kind of scheduling to the wrapped scheduler")
  func forwards() {
    let test = DispatchQueue.test
    let scheduler: AnySchedulerOf<DispatchQueue> = test.eraseToAnyScheduler()
    #expect(scheduler.now == test.now)
    #expect(scheduler.minimumTolerance == test.minimumTolerance)
    var log: [String] = []
    scheduler.schedule { log.append("now") }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("later") }
    let repeating = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(2)), interval: .seconds(1)
    ) { log.append("tick") }
    #expect(log.isEmpty)
    test.advance(by: .seconds(3))
    #expect(log == ["now", "later", "tick", "tick"])
    repeating.cancel()
    test.advance(by: .seconds(3))
    #expect(log.count == 4)
    #expect(scheduler.now == test.now)
  }

  @Test("operators run on an erased test scheduler in virtual time")
  func operators() {
    let test = DispatchQueue.test
    let scheduler = test.eraseToAnyScheduler()
    let recorder = Just(1).delay(for: .seconds(1), scheduler: scheduler).record()
    test.advance(by: .seconds(1))
    #expect(recorder.values == [1])
  }

  @Test("can be built from closures")
  func fromClosures() {
    var scheduled = 0
    let scheduler = AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
      minimumTolerance: { .zero },
      now: { DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 42)) },
      scheduleImmediately: { _, action in
        scheduled += 1
        action()
      },
      delayed: { _, _, _, action in action() },
      interval: { _, _, _, _, action in
        action()
        return AnyCancellable {}
      })
    var ran = false
    scheduler.schedule { ran = true }
    #expect(ran)
    #expect(scheduled == 1)
    #expect(scheduler.now.dispatchTime.uptimeNanoseconds == 42)
  }
}
