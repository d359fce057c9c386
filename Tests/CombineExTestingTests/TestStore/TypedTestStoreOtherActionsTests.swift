import CombineExStore
import CombineExTesting
import Foundation
import Testing

// TypedTestStore sends actions of other types (thunks, publisher actions) beside its own. The
// calls are also compile tests: the feature's actions keep their leading dot (which only the
// `Action` form accepts), and an `await` on a synchronous form would be rejected by
// `-warnings-as-errors`.

@Suite("TypedTestStore sending other action types")
struct TypedTestStoreOtherActionsTests {
  @Test("a RetainedPublisherAction is sent and its pipelines' actions received, synchronously")
  func sendsRetainedPublisherActionSync() {
    let publishers = PublisherMiddleware<Feature>()
    let store = makeTypedFeatureStore(middlewares: [publishers.middleware])
    let responses = PassthroughSubject<String, Never>()
    store.send(
      RetainedPublisherAction<Feature> { dispatch, _, cancellables, cleanup in
        responses.handleCleanup(cleanup)
          .sink { dispatch(FeatureAction.factLoaded($0)) }
          .store(in: &cancellables)
      })
    #expect(store.runningEffects.first?.contains("RetainedPublisherAction") == true)
    responses.send("hello")
    store.receive(.factLoaded("hello")) { $0.fact = "hello" }
    responses.send(completion: .finished)
    store.send(.increment) { $0.count = 1 }  // the leading dot still picks the Action form
    store.finish()
  }

  @Test("a thunk is sent with await, and the feature's own actions keep the leading dot")
  func sendsThunkAsync() async {
    let store = makeTypedFeatureStore(middlewares: [createThunkMiddleware()])
    await store.send(
      Thunk<Feature> { dispatch, _ in
        dispatch(FeatureAction.increment)
      })
    await store.receive(.increment) { $0.count = 1 }
    await store.send(.decrement) { $0.count = 0 }
    await store.finish()
  }

  @Test("an action of another type that changes nothing passes the state check")
  func sendsOtherTypeWithoutStateChange() {
    let store = makeTypedFeatureStore()
    store.send(Ping(id: 3))
    store.finish()
  }

  @Test("sending another type checks the state change like the typed form")
  func otherTypeStateCheckFails() {
    let store = makeTypedFeatureStore(middlewares: [createThunkMiddleware()])
    let recorded = issues {
      store.send(Thunk<Feature> { _, _ in }) { $0.count = 1 }
    }
    #expect(recorded.count == 1)
    #expect(
      recorded.first.map(text(of:))?.contains(
        "The state after Thunk (TypedTestStoreOtherActionsTests.swift:") == true)
  }

  @Test("a feature action sent by value picks the typed form, with await too")
  func featureActionValuePicksTypedForm() async {
    let store = makeTypedFeatureStore()
    let increment = FeatureAction.increment
    await store.send(increment) { $0.count = 1 }
    let erased: any StoreAction = FeatureAction.decrement
    await store.send(erased) { $0.count = 0 }
    await store.finish()
  }
}
