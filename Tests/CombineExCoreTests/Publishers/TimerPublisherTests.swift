import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("Timer.publish")
struct TimerPublisherTests {
  @Test("publish(every:on:in:) keeps its parameters")
  func parameters() {
    let publisher = Timer.publish(every: 0.5, on: .main, in: .common)
    #expect(publisher.interval == 0.5)
    #expect(publisher.tolerance == nil)
    #expect(publisher.runLoop === RunLoop.main)
    #expect(publisher.mode == .common)
  }

  @Test("publish(every:tolerance:...) drops the tolerance, as Combine does")
  func publishDropsTolerance() {
    #expect(Timer.publish(every: 0.5, tolerance: 0.1, on: .main, in: .common).tolerance == nil)
  }

  @Test("TimerPublisher's initializer keeps the tolerance")
  func initializerKeepsTolerance() {
    let publisher = Timer.TimerPublisher(
      interval: 0.5, tolerance: 0.1, runLoop: .main, mode: .common)
    #expect(publisher.tolerance == 0.1)
  }

  @Test("after connect(), emits increasing dates on the run loop")
  func emitsDates() async {
    let thread = RunLoopThread()
    defer { thread.stop() }
    let publisher = Timer.publish(every: 0.005, on: thread.runLoop, in: .default)
    let recorder = publisher.record()
    let start = Date()
    let connection = publisher.connect()
    let dates = await recorder.values(count: 3)
    connection.cancel()
    #expect(dates.count >= 3)
    #expect(dates.allSatisfy { $0 >= start })
    #expect(dates == dates.sorted())
  }

  @Test("nothing is emitted before connect(), and the timer stops when cancelled")
  func connectAndCancel() async {
    let thread = RunLoopThread()
    defer { thread.stop() }
    let publisher = Timer.publish(every: 0.005, on: thread.runLoop, in: .default)
    let recorder = publisher.record()
    // A marker on the same run loop, after two would-be ticks: nothing ticked meanwhile.
    let marker = Flag()
    thread.runLoop.schedule(after: thread.runLoop.now.advanced(by: .milliseconds(15))) {
      marker.raise()
    }
    #expect(await marker.wait())
    #expect(recorder.values.isEmpty)

    let connection = publisher.connect()
    _ = await recorder.values(count: 1)
    let stopped = Flag()
    let countAtCancel = Log<Int>()
    thread.runLoop.schedule {
      connection.cancel()
      countAtCancel.append(recorder.values.count)
      thread.runLoop.schedule(after: thread.runLoop.now.advanced(by: .milliseconds(20))) {
        stopped.raise()
      }
    }
    #expect(await stopped.wait())
    #expect(recorder.values.count == countAtCancel.values.first)
  }

  @Test("autoconnect() starts the timer with the first subscriber")
  func autoconnect() async {
    let thread = RunLoopThread()
    defer { thread.stop() }
    let recorder = Timer.publish(every: 0.005, on: thread.runLoop, in: .default)
      .autoconnect()
      .record()
    #expect(await recorder.values(count: 2).count >= 2)
    recorder.cancel()
  }
}
