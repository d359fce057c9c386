import CombineExStore
import CombineExTesting
import Testing

@Suite("Store: state, dispatch and reducer")
struct StoreTests {
  @Test("a new store holds its initial state")
  func initialState() {
    let store = makeLogStore()
    #expect(store.state == Log())
  }

  @Test("dispatch runs the reducer, and state reflects the action when dispatch returns")
  func dispatchReduces() {
    let store = makeLogStore()
    store.dispatch(Increment())
    #expect(store.state.count == 1)
    store.dispatch(Add(amount: 5))
    #expect(store.state == Log(count: 6, names: ["Increment", "Add(5)"]))
  }

  @Test("the reducer sees actions in dispatch order")
  func reducerOrder() {
    let store = makeLogStore()
    for name in ["a", "b", "c", "d"] {
      store.dispatch(Named(name))
    }
    #expect(store.state.names == ["a", "b", "c", "d"])
  }

  @Test("an action no reducer handles leaves the state unchanged")
  func unhandledActionLeavesState() {
    let store = makeLogStore()
    store.dispatch(Add(amount: 2))
    let before = store.state
    store.dispatch(Unhandled())
    #expect(store.state == before)
  }

  @Test("an action no reducer handles emits exactly one (unchanged) state and no sub-state")
  func unhandledActionEmitsNothingExtra() {
    let store = makeLogStore()
    let states = store.statePublisher.record()
    let counts = store.publisher(for: \.count).record()
    store.dispatch(Unhandled())
    #expect(states.values == [Log(), Log()])
    #expect(counts.values == [0])
  }

  @Test("a store without middlewares sends every action straight to the reducer")
  func noMiddlewares() {
    let store = Store(reducer: counterReducer, state: 10)
    store.dispatch(Increment())
    store.dispatch(Add(amount: -4))
    #expect(store.state == 7)
  }

  @Test("state can be read from inside the reducer's callers and state subscribers")
  func stateReadableDuringProcessing() {
    let store = makeLogStore()
    let seen = Recorder<Int>()
    let cancellable = store.statePublisher.sink { _ in seen.append(store.state.count) }
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(seen.values == [0, 1, 2])
    withExtendedLifetime(cancellable) {}
  }

  @Test("dispatch(_:from:) processes the action like dispatch(_:)")
  func dispatchFromSource() {
    let store = makeLogStore()
    store.dispatch(Increment(), from: .here(info: "test"))
    #expect(store.state.count == 1)
  }
}
