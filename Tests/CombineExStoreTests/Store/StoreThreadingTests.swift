import CombineExStore
import Foundation
import Testing

/// An action carrying a number, for the threading tests.
private struct Tagged: StoreAction {
  let tag: Int
}

@Suite("Store: dispatch from any thread returns after everything it causes")
struct StoreThreadingTests {
  @Test(
    "stress: each dispatch returns after the middleware, the reducer and every state subscriber ran for it, while another thread subscribes in a loop"
  )
  func stressDispatchReturnsAfterSubscribers() async {
    let middlewareSaw = LockedBox(Set<Int>())
    let subscriberSaw = LockedBox(Set<Int>())
    let middleware: Middleware<Int> = { _, _, next in
      { action in
        if let tagged = action as? Tagged { middlewareSaw.withLock { _ = $0.insert(tagged.tag) } }
        next(action)
      }
    }
    let store = Store(
      reducer: { (state: inout Int, action: any StoreAction) in
        if let tagged = action as? Tagged { state = tagged.tag }
      },
      state: -1, middlewares: [middleware])
    let keeper = store.statePublisher.sink { state in
      subscriberSaw.withLock { _ = $0.insert(state) }
    }
    let late = LockedBox(0)
    let dispatchersLeft = LockedBox(4)
    await concurrentPerform(5) { thread in
      if thread == 0 {
        // Another thread keeps subscribing to the state publisher (each subscription replays
        // the current state on this thread) while the others dispatch.
        while dispatchersLeft.withLock({ $0 }) > 0 {
          // A replay that takes a little while widens the window in which a dispatch on
          // another thread meets this thread delivering.
          let cancellable = store.statePublisher.sink { _ in usleep(50) }
          cancellable.cancel()
        }
        return
      }
      for round in 0..<300 {
        let tag = thread * 10_000 + round
        store.dispatch(Tagged(tag: tag))
        let done =
          middlewareSaw.withLock { $0.contains(tag) }
          && subscriberSaw.withLock { $0.contains(tag) } && store.state != -1
        if !done { late.withLock { $0 += 1 } }
      }
      dispatchersLeft.withLock { $0 -= 1 }
    }
    #expect(late.withLock { $0 } == 0, "dispatches that returned before their subscribers ran")
    keeper.cancel()
  }
}
