import CombineExStore
import Testing

@Suite("Reducer and combineReducers")
struct ReducerTests {
  @Test("combineReducers runs the reducers in order, each on the previous one's result")
  func combinedInOrder() {
    let reducer: Reducer<[String]> = combineReducers(
      { log, _ in log.append("first") },
      { log, _ in log.append("second(\(log.count))") },
      { log, _ in log.append("third(\(log.count))") })
    var log: [String] = []
    reducer(&log, Increment())
    #expect(log == ["first", "second(1)", "third(2)"])
  }

  @Test("combineReducers of nothing leaves the state unchanged")
  func combinedNothing() {
    let reducer: Reducer<Int> = combineReducers()
    var state = 3
    reducer(&state, Increment())
    #expect(state == 3)
  }

  @Test("a store with combined reducers gives every reducer every action")
  func storeWithCombinedReducers() {
    let store = Store(
      reducer: combineReducers(
        counterReducer,
        { count, action in
          if action is Named { count *= 10 }
        }),
      state: 1)
    store.dispatch(Increment())
    store.dispatch(Named("times ten"))
    #expect(store.state == 20)
  }
}
