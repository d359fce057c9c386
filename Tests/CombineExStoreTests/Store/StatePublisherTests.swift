import CombineExStore
import CombineExTesting
import Testing

@Suite("Store: statePublisher and publisher(for:)")
struct StatePublisherTests {
  @Test("statePublisher replays the current state to a new subscriber")
  func replaysCurrentState() {
    let store = Store(reducer: counterReducer, state: 3)
    store.dispatch(Increment())
    let states = store.statePublisher.record()
    #expect(states.values == [4])
  }

  @Test("statePublisher emits after every action that reaches the reducer, changed or not")
  func emitsAfterEveryAction() {
    let store = Store(reducer: counterReducer, state: 0)
    let states = store.statePublisher.record()
    store.dispatch(Increment())
    store.dispatch(Unhandled())
    store.dispatch(Add(amount: 0))
    store.dispatch(Add(amount: 2))
    #expect(states.values == [0, 1, 1, 1, 3])
  }

  @Test("an action swallowed by a middleware does not emit a state")
  func swallowedActionDoesNotEmit() {
    let store = Store(reducer: counterReducer, state: 0, middlewares: [createThunkMiddleware()])
    let states = store.statePublisher.record()
    store.dispatch(Thunk<Int> { _, _ in })
    #expect(states.values == [0])
  }

  @Test("statePublisher honours demand: one state, then the latest on the next request")
  func demand() {
    let store = Store(reducer: counterReducer, state: 0)
    let states = store.statePublisher.record(initialDemand: .max(1))
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(states.values == [0])
    states.request(.max(1))
    #expect(states.values == [0, 2])
    store.dispatch(Increment())
    #expect(states.values == [0, 2])
  }

  @Test("statePublisher with no demand delivers nothing until asked")
  func noDemand() {
    let store = Store(reducer: counterReducer, state: 5)
    let states = store.statePublisher.record(initialDemand: .none)
    store.dispatch(Increment())
    #expect(states.values == [])
    states.request(.max(1))
    #expect(states.values == [6])
  }

  @Test("a cancelled state subscriber receives nothing more")
  func cancelStopsDelivery() {
    let store = Store(reducer: counterReducer, state: 0)
    let states = store.statePublisher.record()
    store.dispatch(Increment())
    states.cancel()
    store.dispatch(Increment())
    #expect(states.values == [0, 1])
  }

  @Test("statePublisher does not keep the store alive, and finishes when the store is freed")
  func finishesWhenStoreFreed() {
    var store: Store<Int>? = Store(reducer: counterReducer, state: 0)
    let weakStore = WeakBox(store)
    let states = store!.statePublisher.record()
    let publisher = store!.statePublisher
    store = nil
    #expect(weakStore.object == nil)
    #expect(states.receivedCompletion == .finished)
    #expect(publisher.record().receivedCompletion == .finished)
  }

  @Test("every state subscriber sees the same states in the same order")
  func subscribersAgree() {
    let store = Store(reducer: counterReducer, state: 0)
    let first = store.statePublisher.record()
    let second = store.statePublisher.record()
    for _ in 0..<3 { store.dispatch(Increment()) }
    #expect(first.values == [0, 1, 2, 3])
    #expect(second.values == first.values)
  }

  @Test("publisher(for: keyPath) replays the sub-state and publishes only its changes")
  func keyPathDeduplicated() {
    let store = makeLogStore()
    let counts = store.publisher(for: \.count).record()
    store.dispatch(Named("no count change"))
    store.dispatch(Increment())
    store.dispatch(Add(amount: 0))
    store.dispatch(Add(amount: 2))
    #expect(counts.values == [0, 1, 3])
  }

  @Test("publisher(for: closure) replays the derived value and publishes only its changes")
  func closureDeduplicated() {
    let store = Store(reducer: counterReducer, state: 0)
    let parity = store.publisher { $0.isMultiple(of: 2) ? "even" : "odd" }.record()
    store.dispatch(Add(amount: 2))
    store.dispatch(Increment())
    store.dispatch(Add(amount: 2))
    store.dispatch(Increment())
    #expect(parity.values == ["even", "odd", "even"])
  }

  @Test("publisher(for:) finishes when the store is freed")
  func subStateFinishes() {
    var store: Store<Log>? = makeLogStore()
    let counts = store!.publisher(for: \.count).record()
    store = nil
    #expect(counts.receivedCompletion == .finished)
  }

  @Test("a state subscriber that subscribes another one inside its delivery works")
  func reentrantSubscribe() {
    let store = Store(reducer: counterReducer, state: 0)
    let inner = Shared<TestSubscriber<Int, Never>?>(nil)
    let cancellable = store.statePublisher.sink { count in
      if count == 1, inner.value == nil { inner.value = store.statePublisher.record() }
    }
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(inner.value?.values == [1, 2])
    withExtendedLifetime(cancellable) {}
  }
}
