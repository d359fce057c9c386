import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("Effect: debounce and throttle")
struct EffectTimingTests {
  @Test("debounce runs the effect after the due time")
  func debounceWaits() {
    let scheduler = DispatchQueue.test
    let runs = Counter()
    let effect = Effect<Int, Never>.result {
      runs.increment()
      return .success(1)
    }
    let recorder = effect.debounce(id: UUID(), for: .seconds(1), scheduler: scheduler).record()
    scheduler.advance(by: .milliseconds(999))
    #expect(runs.count == 0)
    #expect(recorder.values == [])
    scheduler.advance(by: .milliseconds(1))
    #expect(runs.count == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("of debounced effects started in quick succession, only the last one runs")
  func debounceKeepsLast() {
    let scheduler = DispatchQueue.test
    let id = UUID()
    // A query every 2 s, each debounced by 3 s: a, then b, are replaced before their time
    // comes; c runs 3 s after it was started.
    let queries = scheduler.hotPublisher("-a-b-c------")
    scheduler.expect(
      queries.flatMap {
        Effect(value: $0).debounce(id: id, for: .seconds(3), scheduler: scheduler)
      },
      toProduce: "--------c---")
  }

  @Test("debounced runs replaced before their time finish without a value")
  func debounceReplacedRunsFinish() {
    let scheduler = DispatchQueue.test
    let id = UUID()
    let recorders = ["s", "sw", "swift"].map { query -> TestSubscriber<String, Never> in
      defer { scheduler.advance(by: .milliseconds(100)) }
      return Effect(value: query).debounce(id: id, for: .milliseconds(300), scheduler: scheduler)
        .record()
    }
    #expect(recorders.map(\.receivedCompletion) == [.finished, .finished, nil])
    scheduler.advance(by: .milliseconds(300))
    #expect(recorders.map(\.values) == [[], [], ["swift"]])
    #expect(recorders.map(\.receivedCompletion) == [.finished, .finished, .finished])
  }

  @Test("a new debounced effect cancels the previous one even after it started running")
  func debounceCancelsRunning() {
    let scheduler = DispatchQueue.test
    let id = UUID()
    let response = PassthroughSubject<String, Never>()
    let first = Effect(response).debounce(id: id, for: .seconds(1), scheduler: scheduler).record()
    scheduler.advance(by: .seconds(1))  // the first request is in flight
    let second = Effect<String, Never>(value: "second").debounce(
      id: id, for: .seconds(1), scheduler: scheduler
    )
    .record()
    response.send("late response")
    scheduler.advance(by: .seconds(1))
    #expect(first.values == [])
    #expect(first.receivedCompletion == .finished)
    #expect(second.values == ["second"])
  }

  @Test("different debounce ids do not cancel each other")
  func debounceSeparateIDs() {
    let scheduler = DispatchQueue.test
    let a = Effect<Int, Never>(value: 1).debounce(
      id: UUID(), for: .seconds(1), scheduler: scheduler
    )
    .record()
    let b = Effect<Int, Never>(value: 2).debounce(
      id: UUID(), for: .seconds(1), scheduler: scheduler
    )
    .record()
    scheduler.advance(by: .seconds(1))
    #expect(a.values == [1])
    #expect(b.values == [2])
  }

  @Test("a debounced effect can be cancelled by its id")
  func debounceCancelByID() {
    let scheduler = DispatchQueue.test
    let id = UUID()
    let recorder = Effect<Int, Never>(value: 1).debounce(
      id: id, for: .seconds(1), scheduler: scheduler
    )
    .record()
    _ = Effect<Int, Never>.cancel(id: id).record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a debounced value waiting when its id is cancelled is never published")
  func debounceCancelDropsWaitingValue() {
    let scheduler = DispatchQueue.test
    let id = UUID()
    func send(_ value: Int) -> TestSubscriber<Int, Never> {
      Effect<Int, Never>(value: value)
        .debounce(id: id, for: .seconds(1), scheduler: scheduler).record()
    }
    let first = send(1)  // at 0: waits until 1
    scheduler.advance(by: .milliseconds(500))
    _ = Effect<Int, Never>.cancel(id: id).record()  // at 0.5
    #expect(first.receivedCompletion == .finished)
    scheduler.advance(by: .seconds(5))
    let second = send(2)  // at 5.5: waits its own due time, until 6.5
    scheduler.advance(by: .milliseconds(999))
    #expect(second.values == [])
    scheduler.advance(by: .milliseconds(1))
    #expect(first.values == [])
    #expect(second.values == [2])
    #expect(second.receivedCompletion == .finished)
  }

  @Test("debounce works on any scheduler: RunLoop's test scheduler")
  func debounceOtherScheduler() {
    let scheduler = RunLoop.test
    let recorder = Effect<Int, Never>(value: 1)
      .debounce(id: UUID(), for: .seconds(2), scheduler: scheduler).record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [])
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
  }

  @Test("debounce passes the failure of the effect through")
  func debounceFailure() {
    let scheduler = DispatchQueue.test
    let recorder = Effect<Int, TestError>(error: TestError(1))
      .debounce(id: UUID(), for: .seconds(1), scheduler: scheduler).record()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("throttle publishes the first value at once")
  func throttleFirstAtOnce() {
    let scheduler = DispatchQueue.test
    let recorder = Effect<Int, Never>(value: 1)
      .throttle(id: UUID(), for: .seconds(1), scheduler: scheduler, latest: true).record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
  }

  /// Each value of `input` run as an effect throttled under `id`, as a store would start them.
  func throttled(
    _ input: MarblePublisher<String, Never>, id: UUID,
    for interval: DispatchQueue.SchedulerTimeType.Stride,
    scheduler: TestSchedulerOf<DispatchQueue>, latest: Bool
  ) -> some Publisher<String, Never> {
    input.flatMap {
      Effect(value: $0).throttle(id: id, for: interval, scheduler: scheduler, latest: latest)
    }
  }

  @Test("throttle with latest publishes the newest value at the end of the window")
  func throttleLatest() {
    let scheduler = DispatchQueue.test
    let values = scheduler.hotPublisher("abc-----")
    scheduler.expect(
      throttled(values, id: UUID(), for: .seconds(3), scheduler: scheduler, latest: true),
      toProduce: "a--c----")
  }

  @Test("a value that waits publishes at the very end of the window, not a moment before")
  func throttleWindowEnd() {
    let scheduler = DispatchQueue.test
    let id = UUID()
    let recorders = (1...3).map { value in
      Effect<Int, Never>(value: value)
        .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: true).record()
    }
    #expect(recorders.map(\.values) == [[1], [], []])
    scheduler.advance(by: .milliseconds(999))
    #expect(recorders.map(\.values) == [[1], [], []])
    scheduler.advance(by: .milliseconds(1))
    #expect(recorders.map(\.values) == [[1], [], [3]])
    #expect(recorders[1].receivedCompletion == .finished)  // replaced: finished, no value
  }

  @Test("throttle without latest publishes the first value of the window at its end")
  func throttleFirst() {
    let scheduler = DispatchQueue.test
    let values = scheduler.hotPublisher("abc-----")
    scheduler.expect(
      throttled(values, id: UUID(), for: .seconds(3), scheduler: scheduler, latest: false),
      toProduce: "a--b----")
  }

  @Test("after a quiet window, throttle publishes at once again")
  func throttleAfterWindow() {
    let scheduler = DispatchQueue.test
    let values = scheduler.hotPublisher("a---b---c-")
    scheduler.expect(
      throttled(values, id: UUID(), for: .seconds(3), scheduler: scheduler, latest: true),
      toProduce: "a---b---c-")
  }

  @Test("a value delayed to the end of a window starts the next window")
  func throttleDelayedStartsWindow() {
    let scheduler = DispatchQueue.test
    // One tick is 0.5 s; the window is 1 s. b (at 0.5) waits for the end of a's window, at 1,
    // which opens the next window: c (at 1.5) waits until 2.
    let values = scheduler.hotPublisher("ab-c--", tick: .milliseconds(500))
    scheduler.expect(
      throttled(values, id: UUID(), for: .seconds(1), scheduler: scheduler, latest: true),
      toProduce: "a-b-c-", tick: .milliseconds(500))
  }

  @Test("throttle forgets an id once its window has passed with nothing waiting")
  func throttleForgetsIDs() {
    let scheduler = DispatchQueue.test
    let registry = CancellationRegistry.shared
    let ids = [UUID(), UUID(), UUID()]
    func send(_ value: Int, _ id: UUID) -> TestSubscriber<Int, Never> {
      Effect<Int, Never>(value: value)
        .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: true).record()
    }
    let first = ids.map { send(1, $0) }  // at 0: at once, opening a window until 1
    let second = ids.map { send(2, $0) }  // at 0: waits until 1, then opens a window until 2
    #expect(registry.throttleStateCount(for: ids) == 3)
    scheduler.advance(by: .seconds(1))
    #expect(first.map(\.values) == [[1], [1], [1]])
    #expect(second.map(\.values) == [[2], [2], [2]])
    #expect(registry.throttleStateCount(for: ids) == 3)
    scheduler.advance(by: .milliseconds(999))
    #expect(registry.throttleStateCount(for: ids) == 3)
    scheduler.advance(by: .milliseconds(1))
    #expect(registry.throttleStateCount(for: ids) == 0)
    // A forgotten id throttles as before: its next value is published at once.
    let third = send(3, ids[0])
    let fourth = send(4, ids[0])
    #expect(third.values == [3])
    #expect(fourth.values == [])
    #expect(registry.throttleStateCount(for: ids) == 1)
    scheduler.advance(by: .seconds(1))
    #expect(fourth.values == [4])
    scheduler.advance(by: .seconds(1))
    #expect(registry.throttleStateCount(for: ids) == 0)
  }

  /// A value run as an effect throttled under `id` by 1 s, recorded.
  func throttle(
    _ value: Int, id: UUID, scheduler: TestSchedulerOf<DispatchQueue>, latest: Bool
  ) -> TestSubscriber<Int, Never> {
    Effect<Int, Never>(value: value)
      .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: latest).record()
  }

  @Test(
    "a throttled value waiting when its id is cancelled is never published, even by a later run",
    arguments: [true, false])
  func throttleCancelDropsWaitingValue(latest: Bool) {
    let scheduler = DispatchQueue.test
    let id = UUID()
    let first = throttle(1, id: id, scheduler: scheduler, latest: latest)  // at 0: window until 1
    scheduler.advance(by: .milliseconds(250))
    let second = throttle(2, id: id, scheduler: scheduler, latest: latest)  // waits until 1
    _ = Effect<Int, Never>.cancel(id: id).record()  // at 0.25
    #expect(second.receivedCompletion == .finished)
    scheduler.advance(by: .seconds(5))
    let third = throttle(3, id: id, scheduler: scheduler, latest: latest)  // at 5.25: at once
    scheduler.advance(by: .seconds(5))
    #expect([first, second, third].map(\.values) == [[1], [], [3]])
  }

  @Test(
    "after a cancel, a value later in the same window publishes itself at the window's end",
    arguments: [true, false])
  func throttleCancelThenSameWindow(latest: Bool) {
    let scheduler = DispatchQueue.test
    let id = UUID()
    let first = throttle(1, id: id, scheduler: scheduler, latest: latest)  // at 0: window until 1
    scheduler.advance(by: .milliseconds(250))
    let second = throttle(2, id: id, scheduler: scheduler, latest: latest)  // waits until 1
    scheduler.advance(by: .milliseconds(250))
    _ = Effect<Int, Never>.cancel(id: id).record()  // at 0.5
    scheduler.advance(by: .milliseconds(250))
    // At 0.75: the cancel dropped 2 but did not reopen the window opened by 1, so 3 waits.
    let third = throttle(3, id: id, scheduler: scheduler, latest: latest)
    #expect(third.values == [])
    scheduler.advance(by: .milliseconds(250))
    #expect([first, second, third].map(\.values) == [[1], [], [3]])
    #expect(third.receivedCompletion == .finished)
  }

  @Test(
    "cancelling an id clears its throttle state once the window has passed",
    arguments: [true, false])
  func throttleCancelForgetsID(latest: Bool) {
    let scheduler = DispatchQueue.test
    let registry = CancellationRegistry.shared
    let id = UUID()
    _ = throttle(1, id: id, scheduler: scheduler, latest: latest)  // at 0: window until 1
    scheduler.advance(by: .milliseconds(250))
    _ = throttle(2, id: id, scheduler: scheduler, latest: latest)  // waits until 1
    _ = Effect<Int, Never>.cancel(ids: [id]).record()  // at 0.25
    #expect(registry.throttleStateCount(for: [id]) == 1)  // the window still stands
    scheduler.advance(by: .milliseconds(749))
    #expect(registry.throttleStateCount(for: [id]) == 1)
    scheduler.advance(by: .milliseconds(1))
    #expect(registry.throttleStateCount(for: [id]) == 0)
  }

  @Test(
    "a throttled value whose subscriber cancels is never published, and its id is forgotten",
    arguments: [true, false])
  func throttleSubscriberCancel(latest: Bool) {
    let scheduler = DispatchQueue.test
    let registry = CancellationRegistry.shared
    let id = UUID()
    let first = throttle(1, id: id, scheduler: scheduler, latest: latest)  // at 0: window until 1
    scheduler.advance(by: .milliseconds(250))
    let second = throttle(2, id: id, scheduler: scheduler, latest: latest)  // waits until 1
    second.cancel()
    scheduler.advance(by: .milliseconds(750))
    #expect(registry.throttleStateCount(for: [id]) == 0)
    let third = throttle(3, id: id, scheduler: scheduler, latest: latest)  // at 1: at once
    #expect([first, second, third].map(\.values) == [[1], [], [3]])
  }

  @Test(
    "a waiting value replaced by a run that publishes nothing in the window is dropped",
    arguments: [true, false])
  func throttleReplacedBySilentRun(latest: Bool) {
    let scheduler = DispatchQueue.test
    let registry = CancellationRegistry.shared
    let id = UUID()
    let first = throttle(1, id: id, scheduler: scheduler, latest: latest)  // at 0: window until 1
    scheduler.advance(by: .milliseconds(250))
    let second = throttle(2, id: id, scheduler: scheduler, latest: latest)  // waits until 1
    scheduler.advance(by: .milliseconds(250))
    // At 0.5 a run with the same id starts, and cancels the run waiting with 2.
    let values = PassthroughSubject<Int, Never>()
    let third = Effect(values)
      .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: latest).record()
    #expect(second.receivedCompletion == .finished)
    scheduler.advance(by: .milliseconds(500))
    #expect(third.values == [])
    #expect(registry.throttleStateCount(for: [id]) == 0)
    scheduler.advance(by: .seconds(5))
    values.send(3)  // at 6: at once, and itself
    #expect([first, second, third].map(\.values) == [[1], [], [3]])
  }

  @Test("a value arriving as the window ends, before the waiting value is published, wins once")
  func throttleValueAtWindowEnd() {
    let scheduler = DispatchQueue.test
    let values = PassthroughSubject<Int, Never>()
    let recorder = Effect(values)
      .throttle(id: UUID(), for: .seconds(1), scheduler: scheduler, latest: true).record()
    // Scheduled first, so at 1 it runs before the publication of the waiting 2.
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { values.send(3) }
    values.send(1)  // at 0: at once
    scheduler.advance(by: .milliseconds(500))
    values.send(2)  // waits until 1
    scheduler.advance(by: .milliseconds(500))
    #expect(recorder.values == [1, 3])
  }

  @Test("throttle works on any scheduler: OperationQueue's test scheduler")
  func throttleOtherScheduler() {
    let scheduler = OperationQueue.test
    let id = UUID()
    let first = Effect<Int, Never>(value: 1)
      .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: true).record()
    let second = Effect<Int, Never>(value: 2)
      .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: true).record()
    scheduler.advance(by: .seconds(1))
    #expect(first.values == [1])
    #expect(second.values == [2])
  }
}
