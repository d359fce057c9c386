import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("RetainedPublisherAction and PublisherMiddleware")
struct RetainedPublisherActionTests {
  /// A store with a publisher middleware the test can watch.
  func makeStore() -> (Store<Log>, PublisherMiddleware<Log>) {
    let publishers = PublisherMiddleware<Log>()
    return (makeLogStore([publishers.middleware]), publishers)
  }

  @Test("pipelines are retained until they end, without keeping the action")
  func retainedUntilEnd() {
    let (store, publishers) = makeStore()
    let responses = PassthroughSubject<Int, Never>()
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        responses.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      })
    #expect(publishers.retainedDispatchCount == 1)
    responses.send(4)
    #expect(store.state.count == 4)
    #expect(publishers.retainedDispatchCount == 1)
    responses.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("released pipelines are freed")
  func releasedPipelinesFreed() {
    let (store, publishers) = makeStore()
    let responses = PassthroughSubject<Int, Never>()
    let watched = WeakBox<TestSubscriber<Int, Never>>(nil)
    store.dispatch(
      RetainedPublisherAction<Log> { _, _, cancellables, cleanup in
        let subscriber = TestSubscriber<Int, Never>()
        watched.object = subscriber
        responses.handleCleanup(cleanup).subscribe(subscriber)
        AnyCancellable(subscriber).store(in: &cancellables)
      })
    #expect(watched.object != nil)
    responses.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
    #expect(watched.object == nil)
  }

  @Test("a failure ends the pipeline and releases it")
  func failureReleases() {
    let (store, publishers) = makeStore()
    let responses = PassthroughSubject<Int, TestError>()
    store.dispatch(
      RetainedPublisherAction<Log> { _, _, cancellables, cleanup in
        responses.handleCleanup(cleanup)
          .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
          .store(in: &cancellables)
      })
    responses.send(completion: .failure(TestError(1)))
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("two pipelines with one cleanup() stay retained; with two they are released")
  func twoPipelinesNeedTwoCleanups() {
    let (store, publishers) = makeStore()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        first.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
        second.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      })
    first.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 1)
    second.send(5)
    #expect(store.state.count == 5)  // the second pipeline still runs
    second.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("a body that stores nothing retains nothing")
  func nothingStored() {
    let (store, publishers) = makeStore()
    let ran = Counter()
    store.dispatch(RetainedPublisherAction<Log> { _, _, _, _ in ran.increment() })
    #expect(ran.count == 1)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("pipelines that complete synchronously inside the body net to zero")
  func synchronousCompletionNetsZero() {
    let (store, publishers) = makeStore()
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        [1, 2].publisher.handleCleanup(cleanup)
          .sink { dispatch(Add(amount: $0)) }
          .store(in: &cancellables)
        Just(10).handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      })
    #expect(publishers.retainedDispatchCount == 0)
    #expect(store.state.count == 13)
  }

  @Test("a synchronous completion and a pending pipeline retain until the pending one ends")
  func mixedSynchronousAndPending() {
    let (store, publishers) = makeStore()
    let pending = PassthroughSubject<Int, Never>()
    store.dispatch(
      RetainedPublisherAction<Log> { _, _, cancellables, cleanup in
        Just(1).handleCleanup(cleanup).sink { _ in }.store(in: &cancellables)
        pending.handleCleanup(cleanup).sink { _ in }.store(in: &cancellables)
      })
    #expect(publishers.retainedDispatchCount == 1)
    pending.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("extra cleanup() calls are harmless and never release another dispatch's pipelines")
  func overCallsHarmless() {
    let (store, publishers) = makeStore()
    let keptCleanup = Shared<(@Sendable () -> Void)?>(nil)
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    store.dispatch(
      RetainedPublisherAction<Log> { _, _, cancellables, cleanup in
        keptCleanup.value = cleanup
        first.handleCleanup(cleanup).sink { _ in }.store(in: &cancellables)
      })
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        second.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      })
    #expect(publishers.retainedDispatchCount == 2)
    first.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 1)
    for _ in 0..<5 { keptCleanup.value?() }  // over-calls for a dispatch already released
    #expect(publishers.retainedDispatchCount == 1)
    second.send(7)
    #expect(store.state.count == 7)
  }

  @Test("extra cleanup() calls while both dispatches are live never release the other's pipelines")
  func overCallsWhileBothLive() {
    let (store, publishers) = makeStore()
    let firstCleanup = Shared<(@Sendable () -> Void)?>(nil)
    let first = PassthroughSubject<Int, Never>()
    let second = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        firstCleanup.value = cleanup
        first.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      })
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        for subject in second {
          subject.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }
            .store(in: &cancellables)
        }
      })
    #expect(publishers.retainedDispatchCount == 2)
    // The first dispatch's cleanup, called more often than it has pipelines while both
    // dispatches still retain theirs: it releases the first dispatch (its count is reached)
    // and never counts toward the second one's.
    for _ in 0..<5 { firstCleanup.value?() }
    #expect(publishers.retainedDispatchCount == 1)
    second[0].send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 1)  // one of the second's two pipelines is left
    second[1].send(3)
    #expect(store.state.count == 3)
    first.send(100)  // released: the first dispatch's pipeline was cancelled
    #expect(store.state.count == 3)
    second[1].send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("a cancel ends the pipeline: cleanup is called and the dispatch released")
  func cancelReleases() {
    let (store, publishers) = makeStore()
    let responses = PassthroughSubject<Int, Never>()
    let cancelHandle = Shared<AnyCancellable?>(nil)
    store.dispatch(
      RetainedPublisherAction<Log> { _, _, cancellables, cleanup in
        let cancellable = responses.handleCleanup(cleanup).sink { _ in }
        cancelHandle.value = cancellable
        cancellable.store(in: &cancellables)
      })
    #expect(publishers.retainedDispatchCount == 1)
    cancelHandle.value?.cancel()
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("each dispatch of the same action is retained on its own")
  func dispatchesCountedSeparately() {
    let (store, publishers) = makeStore()
    let responses = PassthroughSubject<Int, Never>()
    let action = RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
      responses.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
    }
    store.dispatch(action)
    store.dispatch(action)
    #expect(publishers.retainedDispatchCount == 2)
    responses.send(1)
    #expect(store.state.count == 2)
    responses.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("each body gets an empty set after earlier pipelines were released, cancelled and freed")
  func bodyGetsEmptySetAfterReleases() {
    let (store, publishers) = makeStore()
    let sizes = Recorder<Int>()
    let upstreamCancels = Counter()
    let watched = WeakBox<TestSubscriber<Int, Never>>(nil)
    for round in 0..<4 {
      let responses = PassthroughSubject<Int, Never>()
      let pending = PassthroughSubject<Int, Never>()
      store.dispatch(
        RetainedPublisherAction<Log> { _, _, cancellables, cleanup in
          sizes.append(cancellables.count)
          responses.handleCleanup(cleanup).sink { _ in }.store(in: &cancellables)
          // A second pipeline, cancelled when the dispatch is released: its upstream hears it.
          let subscriber = TestSubscriber<Int, Never>()
          if round == 3 { watched.object = subscriber }
          pending.handleEvents(receiveCancel: { upstreamCancels.increment() })
            .subscribe(subscriber)
          AnyCancellable(subscriber).store(in: &cancellables)
          cleanup()  // the second pipeline's cleanup, by hand
        })
      #expect(publishers.retainedDispatchCount == 1)
      responses.send(completion: .finished)
      #expect(publishers.retainedDispatchCount == 0)
      #expect(upstreamCancels.count == round + 1)
    }
    #expect(sizes.values == [0, 0, 0, 0])
    #expect(watched.object == nil)
  }

  @Test("a retained pipeline's subscriber receives its completion, then the dispatch is released")
  func subscriberReceivesCompletionBeforeRelease() {
    let (store, publishers) = makeStore()
    let responses = PassthroughSubject<Int, Never>()
    let events = Recorder<String>()
    store.dispatch(
      RetainedPublisherAction<Log> { _, _, cancellables, cleanup in
        responses
          .handleCleanup {
            events.append("cleanup")
            cleanup()
          }
          .sink(
            receiveCompletion: { _ in
              events.append("completion, retained: \(publishers.retainedDispatchCount)")
            },
            receiveValue: { events.append("value \($0)") }
          )
          .store(in: &cancellables)
      })
    responses.send(1)
    responses.send(completion: .finished)
    #expect(events.values == ["value 1", "completion, retained: 1", "cleanup"])
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("the action never reaches the reducer")
  func notReduced() {
    let seen = Recorder<String>()
    let store = makeLogStore([createPublisherMiddleware(), recordingMiddleware(seen)])
    let states = store.statePublisher.record()
    store.dispatch(RetainedPublisherAction<Log> { _, _, _, _ in })
    #expect(seen.values == [])
    #expect(states.values == [Log()])
  }

  @Test("a retained publisher action for another State type passes down untouched")
  func otherStatePassesDown() {
    let ran = Counter()
    let store = makeLogStore([createPublisherMiddleware()])
    store.dispatch(RetainedPublisherAction<Int> { _, _, _, _ in ran.increment() })
    #expect(ran.count == 0)
    #expect(store.state.names == ["RetainedPublisherAction<Int>"])
  }

  @Test("a pipeline that ends on another thread is released")
  func endsOnAnotherThread() async {
    let (store, publishers) = makeStore()
    let responses = PassthroughSubject<Int, Never>()
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        responses.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      })
    await onOtherThread {
      responses.send(3)
      responses.send(completion: .finished)
    }
    #expect(store.state.count == 3)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("stress: dispatches and completions on many threads leave nothing retained")
  func stressCounters() async {
    let (store, publishers) = makeStore()
    let perThread = isRunningUnderThreadSanitizer ? 100 : 500
    let threads = 8
    let completions = DispatchGroup()
    await concurrentPerform(threads) { _ in
      for _ in 0..<perThread {
        let responses = PassthroughSubject<Int, Never>()
        store.dispatch(
          RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
            responses.handleCleanup(cleanup)
              .sink { dispatch(Add(amount: $0)) }
              .store(in: &cancellables)
            responses.handleCleanup(cleanup).sink { _ in }.store(in: &cancellables)
          })
        completions.enter()
        DispatchQueue.global().async {
          responses.send(1)
          responses.send(completion: .finished)
          completions.leave()
        }
      }
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      completions.notify(queue: .global()) { continuation.resume() }
    }
    #expect(publishers.retainedDispatchCount == 0)
    #expect(store.state.count == threads * perThread)
  }
}
