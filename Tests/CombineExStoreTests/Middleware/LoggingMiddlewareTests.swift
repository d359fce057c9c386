import CombineExStore
import Testing

@Suite("Logging middleware")
struct LoggingMiddlewareTests {
  @Test("logs each action, then the state after it")
  func logsActionAndState() {
    let lines = Recorder<String>()
    let store = Store(
      reducer: counterReducer, state: 0,
      middlewares: [createLoggingMiddleware(log: { lines.append($0) })])
    store.dispatch(Add(amount: 2))
    store.dispatch(Increment())
    #expect(
      lines.values == [
        "[store] action: Add(amount: 2)", "[store] state: 2",
        "[store] action: Increment()", "[store] state: 3",
      ])
  }

  @Test("uses the prefix, and can leave the state out")
  func prefixWithoutState() {
    let lines = Recorder<String>()
    let store = Store(
      reducer: counterReducer, state: 0,
      middlewares: [createLoggingMiddleware(prefix: "app", logsState: false) { lines.append($0) }])
    store.dispatch(Increment())
    #expect(lines.values == ["app action: Increment()"])
    #expect(store.state == 1)
  }

  @Test("placed after the thunk middleware, it does not log thunks")
  func afterThunks() {
    let lines = Recorder<String>()
    let store = Store(
      reducer: counterReducer, state: 0,
      middlewares: [
        createThunkMiddleware(), createLoggingMiddleware(logsState: false) { lines.append($0) },
      ])
    store.dispatch(Thunk<Int> { dispatch, _ in dispatch(Increment()) })
    #expect(lines.values == ["[store] action: Increment()"])
  }

  @Test("writes values without module names, enum actions with their type, thunks by line")
  func readableLines() {
    let lines = Recorder<String>()
    let store = Store(
      reducer: { (items: inout [DescribedItem], action: any StoreAction) in
        if case .item(let item)? = action as? DescribedAction { items.append(item) }
      },
      state: [],
      middlewares: [
        createLoggingMiddleware(log: { lines.append($0) }), createThunkMiddleware(),
      ])
    store.dispatch(DescribedAction.item(DescribedItem(kind: .numbered(1))))
    let line = #line + 1
    store.dispatch(Thunk<[DescribedItem]> { _, _ in })
    #expect(
      lines.values == [
        #"[store] action: DescribedAction.item(DescribedItem(name: "x", kind: DescribedKind.numbered(1)))"#,
        #"[store] state: [DescribedItem(name: "x", kind: DescribedKind.numbered(1))]"#,
        "[store] action: Thunk (LoggingMiddlewareTests.swift:\(line))",
        #"[store] state: [DescribedItem(name: "x", kind: DescribedKind.numbered(1))]"#,
      ])
  }
}
