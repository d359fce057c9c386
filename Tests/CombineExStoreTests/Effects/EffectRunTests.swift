import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("Effect.run, task and Send")
struct EffectRunTests {
  @Test("run's work sends values and a completion to the subscriber")
  func runSends() {
    let recorder = Effect<Int, TestError>.run { subscriber in
      subscriber.send(1)
      subscriber.send(2)
      subscriber.send(completion: .failure(TestError(1)))
      return AnyCancellable {}
    }.record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("run's work runs once per subscription, after the subscription")
  func runIsCold() {
    let runs = Counter()
    let effect = Effect<Int, Never>.run { subscriber in
      runs.increment()
      subscriber.send(runs.count)
      return AnyCancellable {}
    }
    #expect(runs.count == 0)
    #expect(effect.record().values == [1])
    #expect(effect.record().values == [2])
  }

  @Test("values sent before demand wait for it, and the completion waits behind them")
  func runBuffersUntilDemand() {
    let recorder = Effect<Int, Never>.run { subscriber in
      subscriber.send(1)
      subscriber.send(2)
      subscriber.send(3)
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }.record(initialDemand: .none)
    #expect(recorder.values == [])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a value handed to the subscriber is released while later values wait for demand")
  func runReleasesDeliveredValues() {
    let counter = InstanceCounter()
    let handle = LockedBox<Effect<Counted, Never>.Subscriber?>(nil)
    let subscriber = CountingSubscriber<Counted, Never>(initialDemand: .none)
    Effect<Counted, Never>.run { send in
      handle.withLock { $0 = send }
      return AnyCancellable {}
    }.subscribe(subscriber)
    let send = handle.withLock { $0 }!
    // The work stays one value ahead of a subscriber that asks for one at a time, so the
    // buffer never drains.
    send.send(counter.make(0))
    for index in 0..<10_000 {
      send.send(counter.make(index + 1))
      subscriber.request(.max(1))
    }
    #expect(subscriber.count == 10_000)
    #expect(counter.alive == 1, "only the value waiting for demand is alive")
    subscriber.cancel()
    #expect(counter.alive == 0)
  }

  @Test("a completion with nothing buffered needs no demand")
  func runCompletionWithoutDemand() {
    let recorder = Effect<Int, Never>.run { subscriber in
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }.record(initialDemand: .none)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("everything sent after the completion is ignored")
  func runAfterCompletion() {
    let recorder = Effect<Int, Never>.run { subscriber in
      subscriber.send(completion: .finished)
      subscriber.send(1)
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }.record()
    #expect(recorder.values == [])
    #expect(recorder.completionCount == 1)
  }

  @Test("cancelling the subscriber cancels the work's cancellable, and later sends are ignored")
  func runCancel() {
    let cancels = Counter()
    let handle = Shared<Effect<Int, Never>.Subscriber?>(nil)
    let recorder = Effect<Int, Never>.run { subscriber in
      handle.value = subscriber
      return AnyCancellable { cancels.increment() }
    }.record()
    handle.value?.send(1)
    recorder.cancel()
    handle.value?.send(2)
    #expect(cancels.count == 1)
    #expect(recorder.values == [1])
  }

  @Test("a subscriber that cancels while the work runs cancels the returned cancellable")
  func runCancelledDuringWork() {
    let cancels = Counter()
    let sentAfterCancel = Counter()
    let recorder = Effect<Int, Never>.run { subscriber in
      subscriber.send(1)
      subscriber.send(2)  // prefix(1) cancels here (the element after its range), as Combine's
      sentAfterCancel.increment()
      return AnyCancellable { cancels.increment() }
    }
    .prefix(1)
    .record()
    #expect(recorder.values == [1])
    #expect(sentAfterCancel.count == 1)
    #expect(cancels.count == 1)
  }

  @Test("a value the subscriber receives can re-entrantly request more")
  func runReentrantDemand() {
    let recorder = Effect<Int, Never>.run { subscriber in
      for value in 1...4 { subscriber.send(value) }
      subscriber.send(completion: .finished)
      return AnyCancellable {}
    }.record(initialDemand: .max(1), demandAfterEachValue: .max(1))
    #expect(recorder.values == [1, 2, 3, 4])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("the subscription is freed after the completion, and the handle then does nothing")
  func runFreed() {
    let handle = Shared<Effect<Int, Never>.Subscriber?>(nil)
    let released = Counter()
    let recorder = Effect<Int, Never>.run { subscriber in
      handle.value = subscriber
      return AnyCancellable { released.increment() }
    }.record()
    handle.value?.send(completion: .finished)
    #expect(released.count == 1)  // the returned AnyCancellable is released, so it cancels
    handle.value?.send(1)
    #expect(recorder.values == [])
  }

  @Test("stress: values sent from many threads are all delivered, one at a time")
  func stressConcurrentSends() async {
    let perThread = isRunningUnderThreadSanitizer ? 200 : 2_000
    let handle = Shared<Effect<Int, Never>.Subscriber?>(nil)
    let checker = SerialDeliveryChecker()
    let cancellable = Effect<Int, Never>.run { subscriber in
      handle.value = subscriber
      return AnyCancellable {}
    }.sink { checker.receive($0) }
    let subscriber = handle.value!
    await concurrentPerform(4) { thread in
      for index in 0..<perThread { subscriber.send(thread * perThread + index) }
    }
    #expect(checker.values.count == 4 * perThread)
    #expect(Set(checker.values).count == 4 * perThread)
    #expect(checker.overlaps == 0)
    withExtendedLifetime(cancellable) {}
  }

  @Test("async run sends values from a task and finishes when the work returns")
  func asyncRun() async {
    let recorder = Effect<Int, Never>.run { send in
      send(1)
      await Task.yield()
      send(2)
    }.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [1, 2])
  }

  @Test("async run's cancel cancels the task")
  func asyncRunCancel() async {
    let started = DispatchSemaphore(value: 0)
    let sawCancellation = DispatchSemaphore(value: 0)
    let recorder = Effect<Int, Never>.run { send in
      started.signal()
      // Long work, until cancelled (sleeping: a spin would hold a thread of the pool).
      try? await Task.sleep(for: .seconds(3_600))
      sawCancellation.signal()
      send(1)
    }.record()
    await waitFor(started)
    recorder.cancel()
    await waitFor(sawCancellation)
    #expect(recorder.values == [])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("async run hands a thrown error to the catch handler, which may still send")
  func asyncRunCatch() async {
    let recorder = Effect<String, Never>.run { send in
      send("working")
      throw TestError(1)
    } catch: { error, send in
      send("caught \(error)")
    }.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == ["working", "caught TestError(id: 1)"])
  }

  @Test("async run without a handler finishes after a thrown error")
  func asyncRunThrowsWithoutHandler() async {
    let recorder = Effect<Int, Never>.run { _ in throw TestError(1) }.record()
    #expect(await recorder.completion == .finished)
  }

  @Test("throwing async run fails with the thrown error")
  func throwingRunFails() async {
    let recorder = Effect<Int, any Error>.run { send in
      send(1)
      throw TestError(9)
    }.record()
    let completion = await recorder.completion
    #expect(completion?.failure as? TestError == TestError(9))
    #expect(recorder.values == [1])
  }

  @Test("throwing async run finishes when the work returns")
  func throwingRunFinishes() async {
    let recorder = Effect<Int, any Error>.run { send in send(3) }.record()
    let completion = await recorder.completion
    #expect(completion?.failure == nil)
    #expect(recorder.values == [3])
  }

  @Test("task publishes the result and finishes")
  func task() async {
    let recorder = Effect<Int, Never>.task { 6 * 7 }.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [42])
  }

  @Test("throwing task publishes the result, or fails with the thrown error")
  func throwingTask() async {
    let success = Effect<Int, any Error>.task { 1 }.record()
    let failure = Effect<Int, any Error>.task { throw TestError(2) }.record()
    _ = await success.completion
    let failed = await failure.completion
    #expect(success.values == [1])
    #expect(failed?.failure as? TestError == TestError(2))
  }

  @Test("Send is callable like a function")
  func sendCallable() {
    let received = Recorder<Int>()
    let send = Send<Int> { received.append($0) }
    send(1)
    send(2)
    #expect(received.values == [1, 2])
  }
}
