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
    let recorders = ["s", "sw", "swift"].map { query -> TestSubscriber<String, Never> in
      defer { scheduler.advance(by: .milliseconds(100)) }
      return Effect(value: query).debounce(id: id, for: .milliseconds(300), scheduler: scheduler)
        .record()
    }
    scheduler.advance(by: .milliseconds(300))
    #expect(recorders.map(\.values) == [[], [], ["swift"]])
    #expect(recorders.map { $0.receivedCompletion == .finished } == [true, true, true])
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

  @Test("throttle with latest publishes the newest value at the end of the window")
  func throttleLatest() {
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
    let id = UUID()
    let recorders = (1...3).map { value in
      Effect<Int, Never>(value: value)
        .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: false).record()
    }
    scheduler.advance(by: .seconds(1))
    #expect(recorders.map(\.values) == [[1], [], [2]])
  }

  @Test("after a quiet window, throttle publishes at once again")
  func throttleAfterWindow() {
    let scheduler = DispatchQueue.test
    let id = UUID()
    let first = Effect<Int, Never>(value: 1)
      .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: true).record()
    scheduler.advance(by: .seconds(2))
    let second = Effect<Int, Never>(value: 2)
      .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: true).record()
    #expect(first.values == [1])
    #expect(second.values == [2])
  }

  @Test("a value delayed to the end of a window starts the next window")
  func throttleDelayedStartsWindow() {
    let scheduler = DispatchQueue.test
    let id = UUID()
    func send(_ value: Int) -> TestSubscriber<Int, Never> {
      Effect<Int, Never>(value: value)
        .throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: true).record()
    }
    let one = send(1)  // at 0: at once
    scheduler.advance(by: .milliseconds(500))
    let two = send(2)  // at 0.5: waits until 1
    scheduler.advance(by: .milliseconds(500))
    #expect(two.values == [2])
    scheduler.advance(by: .milliseconds(500))
    let three = send(3)  // at 1.5: inside the window opened at 1, waits until 2
    #expect(three.values == [])
    scheduler.advance(by: .milliseconds(500))
    #expect(one.values == [1])
    #expect(three.values == [3])
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
