import CombineExStore
import CombineExTesting
import Testing

/// The publisher middleware reuses what a released dispatch's pipelines dispatched and cleaned up
/// through for the next dispatch: these tests pin that a later dispatch never sees an earlier
/// one's state, and that what is kept for reuse keeps nothing alive.
@Suite("RetainedPublisherAction: dispatches after released ones")
struct RetainedPublisherActionReuseTests {
  /// Records the source of every `Add` that reaches the effect middleware.
  func recordingSources(_ sources: Recorder<ActionSource>) -> Middleware<Log> {
    EffectMiddleware<Add, Add, Log, Void>.onAction { _, _, context in
      sources.append(context.source)
      return .doNothing
    }.asMiddleware()
  }

  @Test("a dispatch after a released one dispatches with its own action's source")
  func laterDispatchCarriesItsOwnSource() {
    let sources = Recorder<ActionSource>()
    let publishers = PublisherMiddleware<Log>()
    let store = makeLogStore([publishers.middleware, recordingSources(sources)])
    let responses = PassthroughSubject<Int, Never>()
    var lines: [UInt] = []
    for _ in 0..<3 {
      lines.append(#line + 1)
      let action = RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        responses.first().handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }
          .store(in: &cancellables)
      }
      store.dispatch(action)
      responses.send(1)
      #expect(publishers.retainedDispatchCount == 0)
    }
    #expect(sources.values.map(\.line) == lines)
    #expect(store.state.count == 3)
  }

  @Test("a cleanup or dispatch kept from a released dispatch never acts for a later dispatch")
  func keptClosuresNeverActForLaterDispatch() {
    let sources = Recorder<ActionSource>()
    let publishers = PublisherMiddleware<Log>()
    let store = makeLogStore([publishers.middleware, recordingSources(sources)])
    let keptCleanup = Shared<(@Sendable () -> Void)?>(nil)
    let keptDispatch = Shared<Dispatch?>(nil)
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let firstLine: UInt = #line + 2  // the action's line
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        keptCleanup.value = cleanup
        keptDispatch.value = dispatch
        first.handleCleanup(cleanup).sink { _ in }.store(in: &cancellables)
      })
    first.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
    let secondLine: UInt = #line + 2  // the action's line
    store.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        second.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      })
    #expect(publishers.retainedDispatchCount == 1)
    for _ in 0..<3 { keptCleanup.value?() }  // over-calls for the dispatch already released
    #expect(publishers.retainedDispatchCount == 1)
    keptDispatch.value?(Add(amount: 10))  // still the first dispatch's
    second.send(7)
    #expect(store.state.count == 17)
    #expect(sources.values.map(\.line) == [firstLine, secondLine])
    second.send(completion: .finished)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("a store is freed after its retained dispatches were released, while the middleware lives")
  func storeFreedWhileMiddlewareLives() {
    let publishers = PublisherMiddleware<Log>()
    var store: Store<Log>? = makeLogStore([publishers.middleware])
    let responses = PassthroughSubject<Int, Never>()
    for _ in 0..<2 {
      store!.dispatch(
        RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
          responses.first().handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }
            .store(in: &cancellables)
        })
      responses.send(2)
    }
    #expect(store?.state.count == 4)
    #expect(publishers.retainedDispatchCount == 0)
    let weakStore = WeakBox(store)
    store = nil
    #expect(weakStore.object == nil)
    withExtendedLifetime(publishers) {}
  }

  @Test("what a released dispatch's pipeline captured is freed before the next dispatch")
  func releasedCapturesFreed() {
    let publishers = PublisherMiddleware<Log>()
    let store = makeLogStore([publishers.middleware])
    let responses = PassthroughSubject<Int, Never>()
    let watched = WeakBox<TestSubscriber<Int, Never>>(nil)
    for round in 0..<3 {
      store.dispatch(
        RetainedPublisherAction<Log> { _, _, cancellables, cleanup in
          let subscriber = TestSubscriber<Int, Never>()
          if round == 0 { watched.object = subscriber }
          responses.first().handleCleanup(cleanup).subscribe(subscriber)
          AnyCancellable(subscriber).store(in: &cancellables)
        })
      responses.send(round)
      #expect(publishers.retainedDispatchCount == 0)
      #expect(watched.object == nil)
    }
  }
}
