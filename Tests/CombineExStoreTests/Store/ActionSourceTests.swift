import CombineExStore
import Testing

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

  @Test("a retained publisher action's dispatches carry its creation site, and only they do")
  func retainedPublisherActionSource() {
    let sources = Recorder<ActionSource>()
    // Dispatches a follow-up of its own (no source of its own: unknown) for every Increment,
    // while the action the pipeline dispatched is being processed.
    let echo: Middleware<Log> = { dispatch, _, next in
      { action in
        next(action)
        if action is Increment { dispatch(Named("echo")) }
      }
    }
    let store = makeLogStore([createPublisherMiddleware(), echo, recordingSources(sources)])
    let responses = PassthroughSubject<Int, Never>()
    let line: UInt = #line + 1
    let action = RetainedPublisherAction<Log> { dispatch, _, cancellables, cleanup in
      dispatch(Increment())
      responses.handleCleanup(cleanup).sink { _ in dispatch(Increment()) }
        .store(in: &cancellables)
    }
    store.dispatch(action)
    responses.send(1)
    // A plain dispatch afterwards, on the same thread: its own call site.
    let directLine: UInt = #line + 1
    store.dispatch(Named("direct"))
    #expect(sources.values.map(\.line) == [line, 0, line, 0, directLine])
    #expect(sources.values.count == 5 && sources.values[1] == .unknown)
    #expect(sources.values.count == 5 && sources.values[3] == .unknown)
    #expect(sources.values.first?.info == "retained publisher action")
    #expect(store.state.count == 2)
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
