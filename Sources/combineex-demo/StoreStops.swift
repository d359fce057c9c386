import CombineExStore

/// Stops about the store: a thunk, a retained publisher action and a cancellable effect.
enum StoreStops {
  struct Add: StoreAction { let amount: Int }
  enum Fetch: StoreAction {
    case start
    case cancel
  }

  static func run(_ tour: Tour) {
    tour.section(
      "A small store",
      "A Redux-style Store: actions go through middlewares to a reducer, one at a time. "
        + "Thunks, publisher actions and effects are middlewares.")
    let responses = PassthroughSubject<Int, Never>()
    let fetcher = EffectMiddleware<Fetch, Add, Int, Void>.onAction { action, _, context in
      switch action {
      case .start: return responses.map(Add.init(amount:)).asEffect(cancellationToken: "fetch")
      case .cancel: return context.toCancel("fetch")
      }
    }
    let publishers = PublisherMiddleware<Int>()
    let store = Store(
      reducer: { (count: inout Int, action: any StoreAction) in
        count += (action as? Add)?.amount ?? 0
      },
      state: 0,
      middlewares: [createThunkMiddleware(), publishers.middleware, fetcher.asMiddleware()])
    let printing = store.statePublisher.sink { tour.show("state: \($0)") }

    tour.show("dispatching a thunk that reads the state and adds one:")
    store.dispatch(
      Thunk<Int> { dispatch, getState in dispatch(Add(amount: (getState() ?? 0) + 1)) })

    tour.show("dispatching a retained publisher action (the middleware keeps its pipeline):")
    let ticks = PassthroughSubject<Int, Never>()
    store.dispatch(
      RetainedPublisherAction<Int> { dispatch, _, cancellables, cleanup in
        ticks.handleCleanup(cleanup).sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      })
    ticks.send(10)
    tour.show("retained dispatches: \(publishers.retainedDispatchCount)")
    ticks.send(completion: .finished)
    tour.show("after the pipeline finished: \(publishers.retainedDispatchCount)")

    tour.show("starting a cancellable effect, then cancelling it:")
    store.dispatch(Fetch.start)
    responses.send(100)
    store.dispatch(Fetch.cancel)
    responses.send(1_000)
    tour.show("effects running: \(fetcher.runningEffectCount); final state: \(store.state)")
    withExtendedLifetime(printing) {}
  }
}
