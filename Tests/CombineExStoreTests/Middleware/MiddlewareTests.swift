import CombineExStore
import Testing

@Suite("Middleware chain")
struct MiddlewareTests {
  /// A middleware that records "name: action" and passes the action on.
  func tracing(_ name: String, _ trace: Recorder<String>) -> Middleware<Log> {
    { _, _, next in
      { action in
        trace.append("\(name): \(action)")
        next(action)
      }
    }
  }

  @Test("the first middleware in the array sees an action first, then the reducer")
  func order() {
    let trace = Recorder<String>()
    let reducerTracing: Middleware<Log> = { _, _, next in
      { action in
        next(action)
        trace.append("reduced: \(action)")
      }
    }
    let store = makeLogStore([
      reducerTracing, tracing("first", trace), tracing("second", trace), tracing("third", trace),
    ])
    store.dispatch(Named("x"))
    #expect(trace.values == ["first: x", "second: x", "third: x", "reduced: x"])
    #expect(store.state.names == ["x"])
  }

  @Test("each middleware is called once, when the store is created")
  func calledOnce() {
    let calls = Counter()
    let counting: Middleware<Log> = { _, _, next in
      calls.increment()
      return next
    }
    let store = makeLogStore([counting, counting])
    #expect(calls.count == 2)
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(calls.count == 2)
  }

  @Test("dispatch re-enters the chain at the top")
  func dispatchReentersAtTop() {
    let trace = Recorder<String>()
    let translating: Middleware<Log> = { dispatch, _, next in
      { action in
        if (action as? Named)?.name == "request" {
          dispatch(Named("translated"))
        } else {
          next(action)
        }
      }
    }
    let store = makeLogStore([tracing("top", trace), translating, tracing("bottom", trace)])
    store.dispatch(Named("request"))
    #expect(trace.values == ["top: request", "top: translated", "bottom: translated"])
    #expect(store.state.names == ["translated"])
  }

  @Test("next passes an action to the next middleware only")
  func nextPassesDown() {
    let trace = Recorder<String>()
    let duplicating: Middleware<Log> = { _, _, next in
      { action in
        next(action)
        next(Named("extra"))
      }
    }
    let store = makeLogStore([tracing("top", trace), duplicating, tracing("bottom", trace)])
    store.dispatch(Named("a"))
    #expect(trace.values == ["top: a", "bottom: a", "bottom: extra"])
    #expect(store.state.names == ["a", "extra"])
  }

  @Test("a middleware that does not call next swallows the action")
  func swallowing() {
    let swallowing: Middleware<Log> = { _, _, next in
      { action in
        if !(action is Unhandled) { next(action) }
      }
    }
    let store = makeLogStore([swallowing])
    let states = store.statePublisher.record()
    store.dispatch(Unhandled())
    store.dispatch(Increment())
    #expect(states.values.count == 2)
    #expect(store.state.count == 1)
  }

  @Test("getState reads the state before and after next")
  func getStateAroundNext() {
    let seen = Recorder<Int>()
    let observing: Middleware<Log> = { _, getState, next in
      { action in
        seen.append(getState()?.count ?? -1)
        next(action)
        seen.append(getState()?.count ?? -1)
      }
    }
    let store = makeLogStore([observing])
    store.dispatch(Add(amount: 3))
    #expect(seen.values == [0, 3])
  }
}
