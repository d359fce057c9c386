import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("Thunk and createThunkMiddleware")
struct ThunkTests {
  @Test("a thunk's body runs with dispatch and getState")
  func bodyRuns() {
    let store = makeLogStore([createThunkMiddleware()])
    store.dispatch(Add(amount: 4))
    store.dispatch(
      Thunk<Log> { dispatch, getState in
        if let count = getState()?.count { dispatch(Add(amount: count)) }
      })
    #expect(store.state.count == 8)
  }

  @Test("a thunk never reaches the reducer or later middlewares")
  func thunkSwallowed() {
    let seen = Recorder<String>()
    let store = makeLogStore([createThunkMiddleware(), recordingMiddleware(seen)])
    let states = store.statePublisher.record()
    store.dispatch(Thunk<Log> { _, _ in })
    #expect(seen.values == [])
    #expect(states.values == [Log()])
  }

  @Test("actions a thunk dispatches synchronously are processed after it, in order")
  func synchronousDispatchesQueued() {
    let store = makeLogStore([createThunkMiddleware()])
    let countWhileRunning = Shared<Int>(-1)
    store.dispatch(
      Thunk<Log> { dispatch, getState in
        dispatch(Named("one"))
        dispatch(Named("two"))
        countWhileRunning.value = getState()?.names.count ?? -1
      })
    #expect(countWhileRunning.value == 0)
    #expect(store.state.names == ["one", "two"])
  }

  @Test("a thunk can dispatch later, from another thread")
  func dispatchLater() async {
    let store = makeLogStore([createThunkMiddleware()])
    let done = DispatchSemaphore(value: 0)
    store.dispatch(
      Thunk<Log> { dispatch, _ in
        DispatchQueue.global().async {
          dispatch(Named("later"))
          done.signal()
        }
      })
    await waitFor(done)
    #expect(store.state.names == ["later"])
  }

  @Test("a thunk can dispatch another thunk")
  func nestedThunks() {
    let store = makeLogStore([createThunkMiddleware()])
    store.dispatch(
      Thunk<Log> { dispatch, _ in
        dispatch(Named("outer"))
        dispatch(Thunk<Log> { dispatch, _ in dispatch(Named("inner")) })
      })
    #expect(store.state.names == ["outer", "inner"])
  }

  @Test("a thunk for another State type passes down untouched")
  func otherStatePassesThrough() {
    let seen = Recorder<String>()
    let ran = Counter()
    let store = makeLogStore([createThunkMiddleware(), recordingMiddleware(seen)])
    store.dispatch(Thunk<Int> { _, _ in ran.increment() })
    #expect(ran.count == 0)
    #expect(seen.count == 1)
    #expect(store.state.names == ["Thunk<Int>"])
  }

  @Test("without a thunk middleware, a thunk reaches the reducer as a plain action")
  func noMiddleware() {
    let ran = Counter()
    let store = makeLogStore()
    store.dispatch(Thunk<Log> { _, _ in ran.increment() })
    #expect(ran.count == 0)
    #expect(store.state.names == ["Thunk<Log>"])
  }

  @Test("other actions pass through the thunk middleware")
  func otherActionsPass() {
    let store = makeLogStore([createThunkMiddleware()])
    store.dispatch(Increment())
    #expect(store.state.count == 1)
  }

  @Test("a thunk records where it was created")
  func source() {
    let line: UInt = #line + 1
    let thunk = Thunk<Log> { _, _ in }
    #expect(thunk.source.line == line)
    #expect(thunk.source.file == #fileID)
    #expect(thunk.source.info == "thunk")
  }
}
