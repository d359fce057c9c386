import CombineExStore
import CombineExTesting
import Testing

@Suite("Store: lifetime")
struct StoreLifetimeTests {
  @Test("a store is freed when its owner drops it")
  func freedWhenDropped() {
    var store: Store<Log>? = makeLogStore([createThunkMiddleware(), createPublisherMiddleware()])
    store!.dispatch(Increment())
    let weakStore = WeakBox(store)
    store = nil
    #expect(weakStore.object == nil)
  }

  @Test("middlewares hold the store weakly: getState is nil and dispatch does nothing after")
  func middlewareFunctionsAfterStoreGone() {
    let captured = Shared<(dispatch: Dispatch, getState: @Sendable () -> Log?)?>(nil)
    let capturing: Middleware<Log> = { dispatch, getState, next in
      captured.value = (dispatch, getState)
      return next
    }
    var store: Store<Log>? = makeLogStore([capturing])
    #expect(captured.value?.getState() == Log())
    captured.value?.dispatch(Increment())
    #expect(store?.state.count == 1)
    let weakStore = WeakBox(store)
    store = nil
    #expect(weakStore.object == nil)
    #expect(captured.value?.getState() == nil)
    captured.value?.dispatch(Increment())  // nothing to do, no crash
  }

  @Test("a thunk's getState is nil once the store is gone")
  func thunkGetStateAfterStoreGone() {
    let later = Shared<(@Sendable () -> Log?)?>(nil)
    var store: Store<Log>? = makeLogStore([createThunkMiddleware()])
    store!.dispatch(Thunk<Log> { _, getState in later.value = getState })
    #expect(later.value?()?.count == 0)
    store = nil
    #expect(later.value?() == nil)
  }

  @Test("a store with effects in flight is freed when dropped, and its effects are cancelled")
  func effectsCancelledWithStore() {
    let responses = PassthroughSubject<Named, Never>()
    let cancels = Counter()
    let effects = EffectMiddleware<Increment, Named, Log, Void>.onAction { _, _, _ in
      responses.handleEvents(receiveCancel: { cancels.increment() }).asEffect()
    }
    var store: Store<Log>? = makeLogStore([effects.asMiddleware()])
    store!.dispatch(Increment())
    store!.dispatch(Increment())
    #expect(effects.runningEffectCount == 2)
    let weakStore = WeakBox(store)
    store = nil
    #expect(weakStore.object == nil)
    #expect(cancels.count == 2)
    #expect(effects.runningEffectCount == 0)
    responses.send(Named("too late"))  // nobody listens any more
  }

  @Test("a store with retained publishers in flight is freed when dropped, and they are cancelled")
  func retainedPublishersCancelledWithStore() {
    let responses = PassthroughSubject<Int, Never>()
    let cancels = Counter()
    let publishers = PublisherMiddleware<Log>()
    var store: Store<Log>? = makeLogStore([publishers.middleware])
    store!.dispatch(
      RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
        responses
          .handleEvents(receiveCancel: { cancels.increment() })
          .handleCleanup(cleanup)
          .sink { dispatch(Add(amount: $0)) }
          .store(in: &cancellables)
      })
    #expect(publishers.retainedDispatchCount == 1)
    let weakStore = WeakBox(store)
    store = nil
    #expect(weakStore.object == nil)
    #expect(cancels.count == 1)
    #expect(publishers.retainedDispatchCount == 0)
  }

  @Test("an async thunk that outlives its store dispatches into nothing")
  func asyncWorkAfterStoreGone() {
    let later = Shared<Dispatch?>(nil)
    var store: Store<Log>? = makeLogStore([createThunkMiddleware()])
    store!.dispatch(Thunk<Log> { dispatch, _ in later.value = dispatch })
    let weakStore = WeakBox(store)
    store = nil
    #expect(weakStore.object == nil)
    later.value?(Increment())
  }
}
