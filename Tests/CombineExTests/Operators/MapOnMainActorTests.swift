import CombineEx
import CombineExTesting
import Dispatch
import Testing

@Suite("mapOnMainActor", .serialized)
struct MapOnMainActorTests {
  @Test("runs the transform on the main actor and publishes its result, then finishes")
  func transformsOnMain() async {
    let onMain = LockedBox<[Bool]>([])
    let recorder = Just(3)
      .mapOnMainActor { value -> String in
        onMain.withLock { $0.append(MainQueue.isCurrent) }
        return "#\(value)"
      }
      .record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == ["#3"])
    #expect(onMain.withLock { $0 } == [true])
  }

  @Test("values that arrive one at a time are each transformed, in order")
  func eachValueInTurn() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.mapOnMainActor { $0 * 10 }.record()
    subject.send(1)
    _ = await recorder.values(count: 1)
    subject.send(2)
    _ = await recorder.values(count: 2)
    subject.send(completion: .finished)
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [10, 20])
  }

  @Test("a value that arrives before the previous result replaces it (latest wins)")
  func latestWins() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.mapOnMainActor { $0 * 10 }.record()
    await MainQueue.drain()
    // Sent from the main queue, so that neither transform can run before both values arrived.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async {
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        continuation.resume()
      }
    }
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [20])
  }

  @Test("a failure of the upstream passes through; cancel drops a pending result")
  func failureAndCancel() async {
    let failing = Fail<Int, ColdTestError>(error: ColdTestError(1)).mapOnMainActor { $0 }.record()
    #expect(failing.receivedCompletion == .failure(ColdTestError(1)))

    // Subscribed and cancelled from the main queue, so that the transform cannot run between.
    let box = LockedBox<TestSubscriber<Int, Never>?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async {
        let recorder = Just(1).mapOnMainActor { $0 }.record()
        recorder.cancel()
        box.withLock { $0 = recorder }
        continuation.resume()
      }
    }
    await MainQueue.drain()
    let recorder = box.withLock { $0 }
    #expect(recorder?.values.isEmpty == true)
    #expect(recorder?.receivedCompletion == nil)
  }

  @Test("returns switchToLatest over futures, cold on a cold upstream")
  func typeAndColdness() async {
    let runs = RunCounter()
    let mapped = countingDeferred([1], counter: runs).mapOnMainActor { $0 + 1 }
    typealias Future = AnyDeferredFuture<Int, Never>
    typealias Source = Deferred<Publishers.Sequence<[Int], Never>>
    #expect(
      type(of: mapped)
        == Publishers.SwitchToLatest<Future, Publishers.Map<Source, Future>>.self)
    let erased: AnyDeferredPublisher<Int, Never> = mapped.eraseToAnyDeferredPublisher()
    let recorder = erased.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [2])
    #expect(runs.value == 1)
  }

  @Test("on a future it returns a DeferredFuture, transformed on the main actor")
  func future() async {
    let onMain = LockedBox(false)
    let future: DeferredFuture<String, Never> = DeferredFuture<Int, Never>.just(4)
      .mapOnMainActor { value in
        onMain.withLock { $0 = MainQueue.isCurrent }
        return "\(value)"
      }
    let recorder = future.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == ["4"])
    #expect(onMain.withLock { $0 })
  }
}
