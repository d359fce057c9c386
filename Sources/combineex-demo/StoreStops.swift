import CombineExStore

/// Stops about the store: a thunk, a retained publisher action, readable logs, and cancellation
/// ids that belong to one store.
enum StoreStops {
  struct Add: StoreAction { let amount: Int }
  enum Fetch: StoreAction {
    case start
    case cancel
  }
  /// The id of the fetch: the same value in every store, each store keeping its own runs.
  enum FetchID: Hashable { case request }

  static func run(_ tour: Tour) {
    tour.section(
      "A small store",
      "A Redux-style Store: actions go through middlewares to a reducer, one at a time. "
        + "Thunks, publisher actions and effects are middlewares.")
    let responses = PassthroughSubject<Int, Never>()
    let fetcher = EffectMiddleware<Fetch, Add, Int, Void>.onAction { action, _, _ in
      switch action {
      case .start:
        return responses.map(Add.init(amount:)).eraseToEffect().cancellable(id: FetchID.request)
      case .cancel:
        return .cancel(id: FetchID.request)
      }
    }
    let publishers = PublisherMiddleware<Int>()
    func makeStore(logging: Bool) -> Store<Int> {
      Store(
        reducer: { (count: inout Int, action: any StoreAction) in
          count += (action as? Add)?.amount ?? 0
        },
        state: 0,
        middlewares: (logging
          ? [createLoggingMiddleware(logsState: false) { print("   > \($0)") }] : [])
          + [createThunkMiddleware(), publishers.middleware, fetcher.asMiddleware()])
    }
    let store = makeStore(logging: false)
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
    printing.cancel()

    tour.section(
      "Cancellation ids belong to a store",
      "Two windows run the same feature: each store has its own table of cancellation ids, so "
        + "cancelling the fetch in one window leaves the other's running. The second window "
        + "logs its actions: values as print writes them, a publisher action by its line.")
    let window = makeStore(logging: true)
    store.dispatch(Fetch.start)
    window.dispatch(Fetch.start)
    window.dispatch(RetainedPublisherAction<Int> { _, _, _, _ in })
    responses.send(100)
    store.dispatch(Fetch.cancel)
    responses.send(1_000)
    tour.show("first window (cancelled after 100): \(store.state)")
    tour.show("second window (still fetching): \(window.state)")
    tour.show("effects running: \(fetcher.runningEffectCount)")
  }
}
