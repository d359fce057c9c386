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

  @Test("the first tick comes one interval after connect(), not at once")
  func firstTickAfterOneInterval() async throws {
    let thread = RunLoopThread()
    defer { thread.stop() }
    let interval = 0.2
    let clock = SuspendingClock()  // monotonic; the timer's run loop waits on the same clock
    let publisher = Timer.publish(every: interval, on: thread.runLoop, in: .default)
    let recorder = publisher.map { _ in clock.now }.record()
    let start = clock.now
    let connection = publisher.connect()
    // A loaded machine can only make the tick later; 30 s bounds the wait.
    let ticks = await recorder.values(count: 1, timeout: .seconds(30))
    connection.cancel()
    let first = try #require(ticks.first)
    #expect(start.duration(to: first) >= .seconds(interval))
  }

  @Test("autoconnect()'s first tick comes one interval after the subscription")
  func autoconnectFirstTickAfterOneInterval() async throws {
    let thread = RunLoopThread()
    defer { thread.stop() }
    let interval = 0.2
    let clock = SuspendingClock()
    let start = clock.now
    let recorder = Timer.publish(every: interval, on: thread.runLoop, in: .default)
      .autoconnect()
      .map { _ in clock.now }
      .record()
    let ticks = await recorder.values(count: 1, timeout: .seconds(30))
    recorder.cancel()
    let first = try #require(ticks.first)
    #expect(start.duration(to: first) >= .seconds(interval))
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

  @Test("its subscription and its connection show no description, mirror or playground value")
  func reflection() throws {
    let publisher = Timer.TimerPublisher(
      interval: 60, tolerance: 0.4, runLoop: .main, mode: .default)
    let connection = publisher.connect()
    defer { connection.cancel() }
    #expect(DebuggerView(connection).isPlain)
    let keeper = SubscriptionKeeper<Date, Never>()
    publisher.subscribe(keeper)
    let subscription = try #require(keeper.subscription)
    #expect(DebuggerView(subscription).isPlain)
    #expect(!(subscription is NSObject))
  }

  @Test("a subscriber's cancel lets go of the subscriber and of its subscription")
  func cancelReleases() throws {
    let publisher = Timer.publish(every: 60, on: .main, in: .default)
    weak var weakKeeper: SubscriptionKeeper<Date, Never>?
    weak var weakSubscription: AnyObject?
    var subscription: (any Subscription)?
    do {
      let keeper = SubscriptionKeeper<Date, Never>()
      weakKeeper = keeper
      publisher.subscribe(keeper)
      subscription = keeper.subscription
      weakSubscription = subscription as AnyObject?
    }
    #expect(weakKeeper != nil)
    try #require(subscription).cancel()
    subscription = nil
    #expect(weakKeeper == nil)
    #expect(weakSubscription == nil)
  }
}
