import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("Publishers.Ticker (scheduler.ticker)")
struct TickerTests {
  @Test("nothing ticks before connect()")
  func nothingBeforeConnect() {
    let scheduler = DispatchQueue.test
    let timer = scheduler.ticker(every: .seconds(1))
    let recorder = timer.record()
    scheduler.advance(by: .seconds(5))
    #expect(recorder.values.isEmpty)
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("ticks every interval after connect(), with the scheduler's time")
  func ticks() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let timer = scheduler.ticker(every: .seconds(1))
    let connection = timer.connect()
    scheduler.expect(
      timer.map { start.distance(to: $0) }, toProduce: "-abc",
      values: ["a": .seconds(1), "b": .seconds(2), "c": .seconds(3)])
    connection.cancel()
  }

  @Test("cancelling the connection stops the ticks")
  func cancelStops() {
    let scheduler = DispatchQueue.test
    let timer = scheduler.ticker(every: .seconds(1))
    let recorder = timer.record()
    let connection = timer.connect()
    scheduler.advance(by: .seconds(2))
    connection.cancel()
    scheduler.advance(by: .seconds(5))
    #expect(recorder.values.count == 2)
    #expect(recorder.receivedCompletion == nil)
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("a subscriber without demand misses ticks")
  func demand() {
    let scheduler = DispatchQueue.test
    let timer = scheduler.ticker(every: .seconds(1))
    let recorder = timer.record(initialDemand: .max(1))
    let connection = timer.connect()
    scheduler.advance(by: .seconds(3))
    #expect(recorder.values.count == 1)
    recorder.request(.max(1))
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values.count == 2)
    connection.cancel()
  }

  @Test("autoconnect starts the timer with the first subscriber and stops it with the last")
  func autoconnect() {
    let scheduler = RunLoop.test
    scheduler.expect(
      scheduler.ticker(every: .seconds(1)).autoconnect().map { _ in "t" },
      toProduce: "-ttt")
    // expect(_:toProduce:) cancels its subscription at the end, the timer's last one.
    #expect(scheduler.pendingWorkCount == 0)
  }

  @Test("the publisher keeps its parameters")
  func parameters() {
    let scheduler = DispatchQueue.test
    let timer = Publishers.Ticker(
      every: .seconds(2), tolerance: .milliseconds(1), scheduler: scheduler)
    #expect(timer.interval == .seconds(2))
    #expect(timer.tolerance == .milliseconds(1))
    #expect(scheduler.ticker(every: .seconds(1)).tolerance == nil)
  }

  @Test("on a real queue, ticks arrive until cancelled")
  func realQueue() async {
    let queue = DispatchQueue(label: "timer")
    let timer = queue.ticker(every: .milliseconds(5))
    let recorder = timer.record()
    let connection = timer.connect()
    #expect(await recorder.values(count: 3).count >= 3)
    connection.cancel()
  }
}
