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

@Suite("Store: action sources")
struct ActionSourceTests {
  /// Records the source of each action an effect middleware reacts to.
  func recordingSources(_ sources: Recorder<ActionSource>) -> Middleware<Log> {
    EffectMiddleware<any StoreAction, any StoreAction, Log, Void>.onAction { _, _, context in
      sources.append(context.source)
      return .doNothing
    }.asMiddleware()
  }

  @Test("dispatch records its call site")
  func dispatchRecordsCallSite() {
    let sources = Recorder<ActionSource>()
    let store = makeLogStore([recordingSources(sources)])
    let line: UInt = #line + 1
    store.dispatch(Increment())
    #expect(sources.values.first?.line == line)
    #expect(sources.values.first?.file == #fileID)
    #expect(sources.values.first?.function == #function)
  }

  @Test("dispatch(_:from:) records the given source")
  func explicitSource() {
    let sources = Recorder<ActionSource>()
    let store = makeLogStore([recordingSources(sources)])
    let source = ActionSource(file: "F.swift", function: "f()", line: 7, info: "explicit")
    store.dispatch(Increment(), from: source)
    #expect(sources.values == [source])
  }

  @Test("actions a thunk dispatches carry the place where the thunk was created")
  func thunkSource() {
    let sources = Recorder<ActionSource>()
    let store = makeLogStore([createThunkMiddleware(), recordingSources(sources)])
    let line: UInt = #line + 1
    let thunk = Thunk<Log> { dispatch, _ in dispatch(Increment()) }
    store.dispatch(thunk)
    #expect(sources.values.map(\.line) == [line])
    #expect(sources.values.first?.info == "thunk")
    #expect(store.state.count == 1)
  }

  @Test("actions a middleware dispatches itself carry the unknown source")
  func middlewareDispatchIsUnknown() {
    let sources = Recorder<ActionSource>()
    let echo: Middleware<Log> = { dispatch, _, next in
      { action in
        next(action)
        if action is Increment { dispatch(Named("echo")) }
      }
    }
    let store = makeLogStore([echo, recordingSources(sources)])
    store.dispatch(Increment())
    #expect(sources.values.count == 2)
    #expect(sources.values.last == .unknown)
  }

  @Test("an effect's outputs carry the place where its middleware's onAction was written")
  func effectOutputSource() {
    let sources = Recorder<ActionSource>()
    let line: UInt = #line + 1
    let effects = EffectMiddleware<Increment, Named, Log, Void>.onAction { _, _, _ in
      .just(Named("output"))
    }
    let store = makeLogStore([effects.asMiddleware(), recordingSources(sources)])
    store.dispatch(Increment())
    #expect(store.state.names == ["Increment", "output"])
    #expect(sources.values.last?.line == line)
    #expect(sources.values.last?.info == "effect of Increment")
  }

  @Test("ActionSource describes itself as file:line function (info)")
  func description() {
    let source = ActionSource(file: "A.swift", function: "run()", line: 3, info: "why")
    #expect(source.description == "A.swift:3 run() (why)")
    #expect(
      ActionSource(file: "A.swift", function: "run()", line: 3).description == "A.swift:3 run()")
  }
}
