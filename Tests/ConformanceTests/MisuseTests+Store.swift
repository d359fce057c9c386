import CombineEx
import CombineExStore
import Testing

/// Misuse of the store's publisher actions: cleanup called more often than the pipelines it
/// stands for, and cancels repeated. Each is a silent no-op for everyone else.
@Suite("misuse: the store's publisher actions")
struct StoreMisuseTests {
  struct Loaded: StoreAction { let value: Int }

  static func makeStore(_ publishers: PublisherMiddleware<Int>) -> Store<Int> {
    Store(
      reducer: { state, action in
        if let loaded = action as? Loaded { state = loaded.value }
      }, state: 0, middlewares: [publishers.middleware])
  }

  @Test(
    "extra cleanup calls after a retained pipeline ended are no-ops and release no other dispatch"
  )
  func retainedCleanupOverCallsAfterTheEnd() {
    let publishers = PublisherMiddleware<Int>()
    let store = Self.makeStore(publishers)
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let firstCleanup = HandleBox<@Sendable () -> Void>()
    store.dispatch(
      RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
        firstCleanup.value = cleanup
        first.handleCleanup(cleanup).sink { dispatch(Loaded(value: $0)) }.store(in: &cancellables)
      })
    store.dispatch(
      RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
        second.handleCleanup(cleanup).sink { dispatch(Loaded(value: $0)) }.store(in: &cancellables)
      })
    #expect(publishers.retainedDispatchCount == 2)
    first.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 1)
    // The first dispatch's cleanup, called again and again after its pipeline ended.
    for _ in 0..<3 { firstCleanup.value?() }
    #expect(publishers.retainedDispatchCount == 1)
    second.send(7)
    #expect(store.state == 7)
    second.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
    firstCleanup.value?()
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test(
    "cleanup called more often than the dispatch stored pipelines releases that dispatch only, once"
  )
  func retainedCleanupOverCallsWhileRunning() {
    let publishers = PublisherMiddleware<Int>()
    let store = Self.makeStore(publishers)
    let overCalled = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<Int, Never>()
    let cleanups = HandleBox<@Sendable () -> Void>()
    store.dispatch(
      RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
        cleanups.value = cleanup
        overCalled.handleCleanup(cleanup).sink { dispatch(Loaded(value: $0)) }
          .store(in: &cancellables)
      })
    store.dispatch(
      RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
        other.handleCleanup(cleanup).sink { dispatch(Loaded(value: $0)) }.store(in: &cancellables)
      })
    // Called by hand while the pipeline runs: its dispatch is released (and so cancelled), as
    // documented; the counts never go below zero and the other dispatch keeps running.
    for _ in 0..<4 { cleanups.value?() }
    #expect(publishers.retainedDispatchCount == 1)
    overCalled.send(1)
    #expect(store.state == 0)
    other.send(2)
    #expect(store.state == 2)
    other.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("a PublisherAction cancelled twice, and after its pipeline ended, disturbs nothing")
  func publisherActionCancelOverCalls() {
    let publishers = PublisherMiddleware<Int>()
    let store = Self.makeStore(publishers)
    let cancelledSubject = PassthroughSubject<Int, Never>()
    let otherSubject = PassthroughSubject<Int, Never>()
    let cancelled = PublisherAction<Int> { dispatch, _, cancellables in
      cancelledSubject.sink { dispatch(Loaded(value: $0)) }.store(in: &cancellables)
    }
    let other = PublisherAction<Int> { dispatch, _, cancellables in
      otherSubject.sink { dispatch(Loaded(value: $0)) }.store(in: &cancellables)
    }
    store.dispatch(cancelled)
    store.dispatch(other)
    cancelled.cancel()
    cancelled.cancel()
    cancelledSubject.send(1)
    #expect(store.state == 0)
    #expect(cancelled.cancellables.isEmpty)
    otherSubject.send(2)
    #expect(store.state == 2)
    otherSubject.send(completion: .finished)
    other.cancel()
    other.cancel()
    #expect(store.state == 2)
  }
}
