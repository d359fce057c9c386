import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("ReplaySubject")
struct ReplaySubjectTests {
  @Test("a new subscriber receives the bufferSize latest values, oldest first, then later ones")
  func replaysLatestValues() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 2)
    subject.send(1)
    subject.send(2)
    subject.send(3)
    let recorder = subject.record()
    #expect(recorder.values == [2, 3])
    subject.send(4)
    #expect(recorder.values == [2, 3, 4])
    let second = subject.record()
    #expect(second.values == [3, 4])
  }

  @Test("every subscriber attached before a value receives it")
  func liveValues() {
    let subject = ReplaySubject<String, Never>(bufferSize: 1)
    let first = subject.record()
    let second = subject.record()
    subject.send("a")
    #expect(first.values == ["a"])
    #expect(second.values == ["a"])
  }

  @Test("bufferSize 0 replays nothing")
  func zeroBuffer() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 0)
    subject.send(1)
    let recorder = subject.record()
    subject.send(2)
    #expect(recorder.values == [2])
  }

  @Test("the replay honours demand: values wait for the subscriber's requests")
  func replayHonoursDemand() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    subject.send(1)
    subject.send(2)
    subject.send(3)
    let recorder = subject.record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    subject.send(4)  // no demand: the subscriber is behind
    #expect(recorder.values == [1, 2])
    recorder.request(.max(5))
    #expect(recorder.values == [1, 2, 3, 4])
    subject.send(5)
    #expect(recorder.values == [1, 2, 3, 4, 5])
  }

  @Test("a subscriber that falls behind receives at most bufferSize of the values it missed")
  func behindSubscriberGetsLatest() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 2)
    let recorder = subject.record(initialDemand: .none)
    for value in 1...5 { subject.send(value) }
    recorder.request(.unlimited)
    #expect(recorder.values == [4, 5])
  }

  @Test("after the completion, a new subscriber receives the kept values, then the completion")
  func completionReplay() {
    let subject = ReplaySubject<Int, ReplayFailure>(bufferSize: 2)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .failure(ReplayFailure()))
    subject.send(3)  // ignored
    let recorder = subject.record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .failure(ReplayFailure()))
  }

  @Test("the completion reaches a subscriber after the values it is owed, on its demand")
  func completionAfterOwedValues() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    let recorder = subject.record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("an empty completed subject sends only the completion, without demand")
  func emptyCompleted() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    subject.send(completion: .finished)
    let recorder = subject.record(initialDemand: .none)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a value evicted from the buffer is released at once", arguments: [1, 3])
  func evictedValuesAreReleased(_ bufferSize: Int) {
    let counter = InstanceCounter()
    let subject = ReplaySubject<Counted, Never>(bufferSize: bufferSize)
    let subscriber = CountingSubscriber<Counted, Never>(initialDemand: .unlimited)
    subject.subscribe(subscriber)
    var alive: [Int] = []
    for index in 0..<60 {
      subject.send(counter.make(index))
      alive.append(counter.alive)
    }
    #expect(subscriber.count == 60)
    #expect(alive == (1...60).map { min($0, bufferSize) }, "only the kept values are alive")
  }

  @Test("a subscriber behind receives the latest values in order after the buffer wrapped")
  func behindAfterWrapping() {
    let counter = InstanceCounter()
    let subject = ReplaySubject<Counted, Never>(bufferSize: 3)
    let behind = subject.record(initialDemand: .max(1))
    for index in 0..<10 {
      subject.send(counter.make(index))
    }
    // Delivered (0) and kept (7, 8, 9): the values dropped for the subscriber are released.
    #expect(counter.alive == 4)
    behind.request(.max(2))
    let late = subject.record(initialDemand: .unlimited)
    subject.send(counter.make(10))
    behind.request(.unlimited)
    #expect(behind.values.map(\.value) == [0, 7, 8, 9, 10])
    #expect(late.values.map(\.value) == [7, 8, 9, 10])
  }

  @Test("nothing is delivered after cancel, and the subscriber is released")
  func cancel() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 2)
    subject.send(1)
    weak var weakRecorder: TestSubscriber<Int, Never>?
    do {
      let recorder = subject.record()
      weakRecorder = recorder
      #expect(recorder.values == [1])
      recorder.cancel()
      subject.send(2)
      #expect(recorder.values == [1])
    }
    #expect(weakRecorder == nil)
  }

  @Test("a subscriber behind that cancels is forgotten; the others keep receiving")
  func cancelWhileBehind() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 2)
    subject.send(1)
    let behind = subject.record(initialDemand: .none)
    let live = subject.record()
    behind.cancel()
    subject.send(2)
    #expect(behind.values.isEmpty)
    #expect(live.values == [1, 2])
  }

  @Test("a value sent from inside a subscriber is delivered at once, nested, in order")
  func reentrantSend() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    var log: [String] = []
    let first = subject.sink { value in
      log.append("first \(value)")
      if value == 1 { subject.send(2) }
    }
    let second = subject.sink { log.append("second \($0)") }
    subject.send(1)
    #expect(log == ["first 1", "first 2", "second 2", "second 1"])
    let late = subject.record()
    #expect(late.values == [1, 2])
    _ = (first, second)
  }

  @Test("a subscriber catching up may send from inside receive; it sees every value once, in order")
  func reentrantSendWhileCatchingUp() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 5)
    subject.send(1)
    subject.send(2)
    var received: [Int] = []
    let cancellable = subject.sink { value in
      received.append(value)
      if value == 1 { subject.send(3) }
    }
    #expect(received == [1, 2, 3])
    _ = cancellable
  }

  @Test("it requests unlimited values from an upstream at once and keeps them for subscribers")
  func upstream() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    let connection = [1, 2, 3].publisher.subscribe(subject)
    let recorder = subject.record()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
    _ = connection
  }

  @Test("a negative buffer size stops the program with a message")
  func negativeBufferSize() async {
    await #expect(processExitsWith: .failure) {
      _ = ReplaySubject<Int, Never>(bufferSize: -1)
    }
  }

  @Test("stress: 8 threads sending and subscribing: every send returns after its delivery")
  func stress() async {
    let subject = ReplaySubject<Int, Never>(bufferSize: 4)
    let problems = LockedBox(0)
    await concurrentPerform(8) { thread in
      for round in 0..<200 {
        let value = thread * 1_000 + round
        let seen = LockedBox<[Int]>([])
        let cancellable = subject.sink { received in seen.withLock { $0.append(received) } }
        subject.send(value)
        let values = seen.withLock { $0 }
        // The replay (at most 4 values) comes first, then live values, each once, and this
        // thread's own value has arrived by the time send returns.
        if !values.contains(value) || Set(values).count != values.count
          || values.count > 4 + 8 * 200
        {
          problems.withLock { $0 += 1 }
        }
        cancellable.cancel()
      }
    }
    #expect(problems.withLock { $0 } == 0)
  }

  @Test("sink and map.sink: cancel releases the closures while the cancellable is kept")
  func sinkCancelReleasesClosures() {
    let subject = ReplaySubject<Int, Never>(bufferSize: 1)
    subject.send(1)
    weak var weakOwner: TestOwner?
    let direct: AnyCancellable
    let mapped: AnyCancellable
    do {
      let owner = TestOwner()
      weakOwner = owner
      direct = subject.sink { owner.values.append($0) }
      mapped = subject.map { $0 * 10 }.sink { owner.values.append($0) }
      subject.send(2)
      #expect(owner.values == [1, 10, 2, 20])
    }
    direct.cancel()
    #expect(weakOwner != nil)
    mapped.cancel()
    #expect(weakOwner == nil)
    subject.send(3)
  }

  // MARK: Lifetime

  @Test("a live subscription keeps the subject; a completion sent through a weak reference arrives")
  func subscriptionKeepsSubject() {
    weak var weakSubject: ReplaySubject<Int, ReplayFailure>?
    let recorder: TestSubscriber<Int, ReplayFailure>
    do {
      let subject = ReplaySubject<Int, ReplayFailure>(bufferSize: 1)
      weakSubject = subject
      recorder = subject.record()
    }
    #expect(weakSubject != nil)
    weakSubject?.send(1)
    weakSubject?.send(completion: .failure(ReplayFailure()))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(ReplayFailure()))
    #expect(weakSubject == nil)
  }

  @Test("cancel releases the subject")
  func cancelReleasesSubject() {
    weak var weakSubject: ReplaySubject<Int, Never>?
    let cancellable: AnyCancellable
    do {
      let subject = ReplaySubject<Int, Never>(bufferSize: 2)
      weakSubject = subject
      subject.send(1)
      cancellable = subject.sink { _ in }
    }
    #expect(weakSubject != nil)
    cancellable.cancel()
    #expect(weakSubject == nil)
  }

  @Test("a subscriber behind at the completion keeps the subject until it has caught up")
  func behindSubscriberKeepsSubjectUntilCaughtUp() {
    weak var weakSubject: ReplaySubject<Int, Never>?
    let recorder: TestSubscriber<Int, Never>
    do {
      let subject = ReplaySubject<Int, Never>(bufferSize: 2)
      weakSubject = subject
      recorder = subject.record(initialDemand: .none)
      subject.send(1)
      subject.send(2)
      subject.send(completion: .finished)
    }
    #expect(weakSubject != nil)
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
    #expect(weakSubject == nil)
  }
}

/// A failure for ReplaySubject's tests.
private struct ReplayFailure: Error, Equatable {}
