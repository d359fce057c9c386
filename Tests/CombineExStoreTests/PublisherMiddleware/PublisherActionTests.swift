import CombineExStore
import CombineExTesting
import Testing

@Suite("PublisherAction")
struct PublisherActionTests {
  @Test("the body runs with dispatch and getState, and its pipelines feed the store")
  func bodyRuns() {
    let ticks = PassthroughSubject<Int, Never>()
    let store = makeLogStore([createPublisherMiddleware()])
    let action = PublisherAction<Log> { dispatch, getState, cancellables in
      #expect(getState() == Log())
      ticks.sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
    }
    store.dispatch(action)
    ticks.send(2)
    ticks.send(3)
    #expect(store.state.count == 5)
  }

  @Test("the action keeps the cancellables its body stored")
  func keepsCancellables() {
    let store = makeLogStore([createPublisherMiddleware()])
    let action = PublisherAction<Log> { _, _, cancellables in
      PassthroughSubject<Int, Never>().sink { _ in }.store(in: &cancellables)
      PassthroughSubject<Int, Never>().sink { _ in }.store(in: &cancellables)
    }
    #expect(action.cancellables.isEmpty)
    store.dispatch(action)
    #expect(action.cancellables.count == 2)
  }

  @Test("dropping the action cancels its pipelines")
  func droppingCancels() {
    let ticks = PassthroughSubject<Int, Never>()
    let cancels = Counter()
    let store = makeLogStore([createPublisherMiddleware()])
    var action: PublisherAction<Log>? = PublisherAction { dispatch, _, cancellables in
      ticks
        .handleEvents(receiveCancel: { cancels.increment() })
        .sink { dispatch(Add(amount: $0)) }
        .store(in: &cancellables)
    }
    store.dispatch(action!)
    ticks.send(1)
    let weakAction = WeakBox(action)
    action = nil
    #expect(weakAction.object == nil)  // the store and the middleware do not keep it
    #expect(cancels.count == 1)
    ticks.send(10)
    #expect(store.state.count == 1)
  }

  @Test("cancel() cancels and releases the pipelines")
  func cancelMethod() {
    let ticks = PassthroughSubject<Int, Never>()
    let store = makeLogStore([createPublisherMiddleware()])
    let action = PublisherAction<Log> { dispatch, _, cancellables in
      ticks.sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
    }
    store.dispatch(action)
    action.cancel()
    ticks.send(1)
    #expect(action.cancellables.isEmpty)
    #expect(store.state.count == 0)
  }

  @Test("the action never reaches the reducer")
  func notReduced() {
    let seen = Recorder<String>()
    let store = makeLogStore([createPublisherMiddleware(), recordingMiddleware(seen)])
    let states = store.statePublisher.record()
    store.dispatch(PublisherAction<Log> { _, _, _ in })
    #expect(seen.values == [])
    #expect(states.values == [Log()])
  }

  @Test("dispatching the action twice runs the body twice and keeps both pipelines")
  func dispatchTwice() {
    let ticks = PassthroughSubject<Int, Never>()
    let store = makeLogStore([createPublisherMiddleware()])
    let action = PublisherAction<Log> { dispatch, _, cancellables in
      ticks.sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
    }
    store.dispatch(action)
    store.dispatch(action)
    ticks.send(1)
    #expect(action.cancellables.count == 2)
    #expect(store.state.count == 2)
  }

  @Test("actions the body dispatches synchronously are processed after it")
  func synchronousDispatches() {
    let store = makeLogStore([createPublisherMiddleware()])
    let action = PublisherAction<Log> { dispatch, _, cancellables in
      [1, 2].publisher.sink { dispatch(Add(amount: $0)) }.store(in: &cancellables)
      dispatch(Named("after the pipeline"))
    }
    store.dispatch(action)
    #expect(store.state.names == ["Add(1)", "Add(2)", "after the pipeline"])
  }

  @Test("a publisher action for another State type passes down untouched")
  func otherStatePassesDown() {
    let ran = Counter()
    let store = makeLogStore([createPublisherMiddleware()])
    store.dispatch(PublisherAction<Int> { _, _, _ in ran.increment() })
    #expect(ran.count == 0)
    #expect(store.state.names == ["PublisherAction<Int>"])
  }
}
