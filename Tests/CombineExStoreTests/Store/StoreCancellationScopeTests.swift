import CombineExStore
import CombineExTesting
import Foundation
import Testing

// Cancellation ids live in the table of the store that runs the effect: the same feature in
// several stores (two windows of an app, tests running in parallel) never cancels itself.

/// The actions of a small search feature with the three id-based effects.
enum ScopedSearch: StoreAction, Equatable {
  case search(String)
  case found(String)
  case cancel
  case volume(Int)
  case volumeSet(Int)
  case watch
  case watched(Int)
  case stopWatching
  case stopWatchingLater
}

/// What the feature shows.
struct ScopedSearchState: Equatable, Sendable {
  var found: [String] = []
  var volumes: [Int] = []
  var watched: [Int] = []
}

/// The feature's ids: the same values in every store, as a user writes them.
enum ScopedSearchID: Hashable {
  case search
  case volume
  case watch
}

func scopedSearchReducer(_ state: inout ScopedSearchState, _ action: any StoreAction) {
  switch action as? ScopedSearch {
  case .found(let text)?: state.found.append(text)
  case .volumeSet(let volume)?: state.volumes.append(volume)
  case .watched(let value)?: state.watched.append(value)
  default: break
  }
}

/// The feature's effects: a debounced search, a throttled volume, and `watch`, whose effect
/// (`watching`) the test chooses.
func scopedSearchEffects(
  scheduler: TestSchedulerOf<DispatchQueue>,
  watching: @escaping @Sendable () -> Effect<ScopedSearch, Never> = { .none }
) -> EffectMiddleware<ScopedSearch, ScopedSearch, ScopedSearchState, Void> {
  .onAction { action, _, _ in
    switch action {
    case .search(let text):
      return Effect(value: .found(text))
        .debounce(id: ScopedSearchID.search, for: .milliseconds(300), scheduler: scheduler)
    case .cancel:
      return .cancel(id: ScopedSearchID.search)
    case .volume(let volume):
      return Effect(value: .volumeSet(volume))
        .throttle(id: ScopedSearchID.volume, for: .seconds(1), scheduler: scheduler, latest: true)
    case .watch:
      return watching()
    case .stopWatching:
      return .cancel(id: ScopedSearchID.watch)
    case .stopWatchingLater:
      return Effect<ScopedSearch, Never>.cancel(id: ScopedSearchID.watch)
        .debounce(id: ScopedSearchID.search, for: .milliseconds(300), scheduler: scheduler)
    case .found, .volumeSet, .watched:
      return .doNothing
    }
  }
}

func makeScopedSearchStore(
  scheduler: TestSchedulerOf<DispatchQueue>,
  watching: @escaping @Sendable () -> Effect<ScopedSearch, Never> = { .none }
) -> Store<ScopedSearchState> {
  Store(
    reducer: scopedSearchReducer, state: ScopedSearchState(),
    middlewares: [scopedSearchEffects(scheduler: scheduler, watching: watching).asMiddleware()])
}

/// A subject of watched values, shared by the stores of a test.
final class WatchedValues: @unchecked Sendable {
  // @unchecked Sendable: the subject is thread-safe.
  let subject = PassthroughSubject<Int, Never>()
}

@Suite("Store: cancellation ids are scoped to the store")
struct StoreCancellationScopeTests {
  @Test("a debounced effect in one store is not replaced by the same effect in another")
  func debounceIsPerStore() {
    let scheduler = DispatchQueue.test
    let first = makeScopedSearchStore(scheduler: scheduler)
    let second = makeScopedSearchStore(scheduler: scheduler)
    first.dispatch(ScopedSearch.search("first"))
    second.dispatch(ScopedSearch.search("second"))
    scheduler.advance(by: .milliseconds(300))
    #expect(first.state.found == ["first"])
    #expect(second.state.found == ["second"])
  }

  @Test("a debounced effect still replaces the one in flight in its own store")
  func debounceReplacesInItsStore() {
    let scheduler = DispatchQueue.test
    let store = makeScopedSearchStore(scheduler: scheduler)
    store.dispatch(ScopedSearch.search("s"))
    scheduler.advance(by: .milliseconds(100))
    store.dispatch(ScopedSearch.search("sw"))
    scheduler.advance(by: .milliseconds(300))
    #expect(store.state.found == ["sw"])
  }

  @Test("Effect.cancel(id:) in one store leaves another store's effects running")
  func cancelIsPerStore() {
    let scheduler = DispatchQueue.test
    let first = makeScopedSearchStore(scheduler: scheduler)
    let second = makeScopedSearchStore(scheduler: scheduler)
    first.dispatch(ScopedSearch.search("first"))
    second.dispatch(ScopedSearch.search("second"))
    second.dispatch(ScopedSearch.cancel)
    scheduler.advance(by: .milliseconds(300))
    #expect(first.state.found == ["first"])
    #expect(second.state.found == [])
  }

  @Test("throttling windows are per store")
  func throttleIsPerStore() {
    let scheduler = DispatchQueue.test
    let first = makeScopedSearchStore(scheduler: scheduler)
    let second = makeScopedSearchStore(scheduler: scheduler)
    first.dispatch(ScopedSearch.volume(1))
    second.dispatch(ScopedSearch.volume(2))
    #expect(first.state.volumes == [1])
    #expect(second.state.volumes == [2])  // not held back by the first store's window
    first.dispatch(ScopedSearch.volume(3))
    #expect(first.state.volumes == [1])  // its own window holds it back
    scheduler.advance(by: .seconds(1))
    #expect(first.state.volumes == [1, 3])
    #expect(second.state.volumes == [2])
  }

  @Test("the ids of a store are shared by all its effect middlewares")
  func idsAreSharedWithinAStore() {
    let values = WatchedValues()
    let starting = EffectMiddleware<ScopedSearch, ScopedSearch, ScopedSearchState, Void>
      .onAction { action, _, _ in
        guard action == .watch else { return .doNothing }
        return Effect(values.subject.map(ScopedSearch.watched))
          .cancellable(id: ScopedSearchID.watch)
      }
    let stopping = EffectMiddleware<ScopedSearch, ScopedSearch, ScopedSearchState, Void>
      .onAction { action, _, _ in
        action == .stopWatching ? .cancel(id: ScopedSearchID.watch) : .doNothing
      }
    let store = Store(
      reducer: scopedSearchReducer, state: ScopedSearchState(),
      middlewares: [starting.asMiddleware(), stopping.asMiddleware()])
    store.dispatch(ScopedSearch.watch)
    values.subject.send(1)
    store.dispatch(ScopedSearch.stopWatching)
    values.subject.send(2)
    #expect(store.state.watched == [1])
    #expect(starting.runningEffectCount == 0)
  }

  @Test("an effect started later on another thread, inside a concatenate, keeps its store's ids")
  func laterPartsKeepTheirStore() async {
    let scheduler = DispatchQueue.test
    let values = WatchedValues()
    // The cancellable part starts after a delay, when the test advances the scheduler on
    // another thread, outside any store's processing.
    let watching: @Sendable () -> Effect<ScopedSearch, Never> = {
      .concatenate(
        Effect(Just(()).delay(for: .seconds(1), scheduler: scheduler)).fireAndForget(),
        Effect(values.subject.map(ScopedSearch.watched)).cancellable(id: ScopedSearchID.watch))
    }
    let first = makeScopedSearchStore(scheduler: scheduler, watching: watching)
    let second = makeScopedSearchStore(scheduler: scheduler, watching: watching)
    first.dispatch(ScopedSearch.watch)
    await onOtherThread { scheduler.advance(by: .seconds(1)) }
    values.subject.send(1)
    second.dispatch(ScopedSearch.stopWatching)  // another store: no effect on the first's
    values.subject.send(2)
    first.dispatch(ScopedSearch.stopWatching)
    values.subject.send(3)
    #expect(first.state.watched == [1, 2])
    #expect(second.state.watched == [])
  }

  @Test("a debounced effect's work, started later on another thread, keeps its store's ids")
  func debouncedWorkKeepsItsStore() async {
    let scheduler = DispatchQueue.test
    let values = WatchedValues()
    let watching: @Sendable () -> Effect<ScopedSearch, Never> = {
      Effect(values.subject.map(ScopedSearch.watched)).cancellable(id: ScopedSearchID.watch)
    }
    let first = makeScopedSearchStore(scheduler: scheduler, watching: watching)
    let second = makeScopedSearchStore(scheduler: scheduler, watching: watching)
    first.dispatch(ScopedSearch.watch)
    second.dispatch(ScopedSearch.watch)
    first.dispatch(ScopedSearch.stopWatchingLater)
    await onOtherThread { scheduler.advance(by: .milliseconds(300)) }
    values.subject.send(1)
    #expect(first.state.watched == [])
    #expect(second.state.watched == [1])
  }

  @Test("an effect inside a plain publisher operator keeps its store's ids")
  func effectsInsidePlainOperatorsKeepTheirStore() {
    let scheduler = DispatchQueue.test
    let values = WatchedValues()
    let watching: @Sendable () -> Effect<ScopedSearch, Never> = {
      Effect(values.subject.map(ScopedSearch.watched))
        .cancellable(id: ScopedSearchID.watch)
        .receive(on: ImmediateScheduler.shared)
        .handleEvents(receiveOutput: { _ in })
        .eraseToEffect()
    }
    let first = makeScopedSearchStore(scheduler: scheduler, watching: watching)
    let second = makeScopedSearchStore(scheduler: scheduler, watching: watching)
    first.dispatch(ScopedSearch.watch)
    second.dispatch(ScopedSearch.stopWatching)
    values.subject.send(1)
    first.dispatch(ScopedSearch.stopWatching)
    values.subject.send(2)
    #expect(first.state.watched == [1])
  }

  @Test("Effect.cancel(id:) subscribed on another queue (subscribe(on:)) cancels in its store")
  func cancelSubscribedOnAnotherQueueKeepsItsStore() async {
    let values = WatchedValues()
    let queue = DispatchQueue(label: "StoreCancellationScopeTests.subscribeOn")
    let cancelRan = DispatchSemaphore(value: 0)
    // The cancel is made in the handler, while the store processes the action, and subscribed
    // later on the queue's thread, where no store is processing anything.
    let stopping: @Sendable () -> Effect<ScopedSearch, Never> = {
      Effect<ScopedSearch, Never>.cancel(id: ScopedSearchID.watch)
        .subscribe(on: queue)
        .handleEvents(receiveCompletion: { _ in cancelRan.signal() })
        .eraseToEffect()
    }
    let first = makeWatchingStore(values: values, stopping: stopping)
    let second = makeWatchingStore(values: values, stopping: stopping)
    first.dispatch(ScopedSearch.watch)
    second.dispatch(ScopedSearch.watch)
    first.dispatch(ScopedSearch.stopWatching)
    #expect(await waitFor(cancelRan, upTo: .seconds(30)), "the cancel never ran on the queue")
    values.subject.send(1)
    #expect(first.state.watched == [])  // cancelled by its own store's id
    #expect(second.state.watched == [1])  // another store: untouched
  }

  @Test(
    "Effect.cancel(id:) delivered later on another thread through delay and flatMap cancels in its store"
  )
  func cancelAfterDelayAndFlatMapKeepsItsStore() async {
    let values = WatchedValues()
    let scheduler = DispatchQueue.test
    // The cancel is made in the handler; the plain operators subscribe it when the delay ends,
    // on the thread that advances the scheduler, outside any store's processing.
    let stopping: @Sendable () -> Effect<ScopedSearch, Never> = {
      let cancel = Effect<ScopedSearch, Never>.cancel(id: ScopedSearchID.watch)
      return Just(())
        .delay(for: .seconds(1), scheduler: scheduler)
        .flatMap { _ in cancel }
        .eraseToEffect()
    }
    let first = makeWatchingStore(values: values, stopping: stopping)
    let second = makeWatchingStore(values: values, stopping: stopping)
    first.dispatch(ScopedSearch.watch)
    second.dispatch(ScopedSearch.watch)
    first.dispatch(ScopedSearch.stopWatching)
    await onOtherThread { scheduler.advance(by: .seconds(1)) }
    values.subject.send(1)
    #expect(first.state.watched == [])
    #expect(second.state.watched == [1])
  }

  @Test("an effect made in a handler and subscribed on another queue files its id in its store")
  func cancellableSubscribedOnAnotherQueueKeepsItsStore() async {
    let values = WatchedValues()
    let queue = DispatchQueue(label: "StoreCancellationScopeTests.cancellableOn")
    let subscribed = DispatchSemaphore(value: 0)
    let watching: @Sendable () -> Effect<ScopedSearch, Never> = {
      Effect(values.subject.map(ScopedSearch.watched))
        .cancellable(id: ScopedSearchID.watch)
        .handleEvents(receiveSubscription: { _ in subscribed.signal() })
        .subscribe(on: queue)
        .eraseToEffect()
    }
    let store = makeScopedSearchStore(scheduler: DispatchQueue.test, watching: watching)
    store.dispatch(ScopedSearch.watch)
    #expect(await waitFor(subscribed, upTo: .seconds(30)), "the effect was never subscribed")
    // `subscribe(on:)` hands the store's request to `queue` too, in a work item enqueued after
    // the signal: once the first empty block has run, that work item is in the queue, and the
    // second runs after it, when the subject has the demand (else `1` would find none).
    queue.sync {}
    queue.sync {}
    values.subject.send(1)
    store.dispatch(ScopedSearch.stopWatching)  // the store's table: the run must be in it
    values.subject.send(2)
    #expect(store.state.watched == [1])
  }

  @Test(
    "an effect made in one store's processing, run by another store's middleware, uses the running store's table"
  )
  func middlewareTableWinsOverBinding() {
    let values = WatchedValues()
    let madeInFirst = LockedBox<Effect<ScopedSearch, Never>?>(nil)
    let making = EffectMiddleware<ScopedSearch, ScopedSearch, ScopedSearchState, Void>
      .onAction { action, _, _ in
        if action == .cancel {
          madeInFirst.withLock { $0 = .cancel(id: ScopedSearchID.watch) }
        }
        return .doNothing
      }
    let first = Store(
      reducer: scopedSearchReducer, state: ScopedSearchState(),
      middlewares: [making.asMiddleware()])
    first.dispatch(ScopedSearch.cancel)
    let second = makeWatchingStore(values: values) {
      madeInFirst.withLock { $0 } ?? .none
    }
    second.dispatch(ScopedSearch.watch)
    second.dispatch(ScopedSearch.stopWatching)  // runs the effect made in the first store
    values.subject.send(1)
    #expect(second.state.watched == [])
  }

  @Test("an effect run outside any store uses the process-wide table, apart from every store")
  func outsideAnyStore() {
    let id = UUID()  // this test's own id in the process-wide table
    let values = WatchedValues()
    let outside = Effect(values.subject).cancellable(id: id).record()
    let store = Store(
      reducer: scopedSearchReducer, state: ScopedSearchState(),
      middlewares: [
        EffectMiddleware<ScopedSearch, ScopedSearch, ScopedSearchState, Void>.onAction { _, _, _ in
          .cancel(id: id)
        }.asMiddleware()
      ])
    store.dispatch(ScopedSearch.cancel)  // the store's table: the outside run is not in it
    values.subject.send(1)
    #expect(outside.values == [1])
    let cancelling = Effect<Never, Never>.cancel(id: id).record()
    values.subject.send(2)
    #expect(outside.values == [1])
    #expect(outside.receivedCompletion == .finished)
    #expect(cancelling.receivedCompletion == .finished)
  }

  @Test("a freed store's table is freed with it, and its effects are cancelled")
  func tableIsFreedWithTheStore() {
    let values = WatchedValues()
    let scheduler = DispatchQueue.test
    var store: Store<ScopedSearchState>? = makeScopedSearchStore(
      scheduler: scheduler,
      watching: {
        Effect(values.subject.map(ScopedSearch.watched)).cancellable(id: ScopedSearchID.watch)
      })
    store?.dispatch(ScopedSearch.watch)
    store?.dispatch(ScopedSearch.search("pending"))
    let registry = WeakBox(store?.cancellationRegistry)
    store = nil
    #expect(registry.object == nil)
    scheduler.advance(by: .seconds(1))
  }

  @Test("an effect middleware's tokens are per store: toCancel in one leaves the other's effect")
  func tokensArePerStore() {
    let values = WatchedValues()
    let middleware = EffectMiddleware<ScopedSearch, ScopedSearch, ScopedSearchState, Void>
      .onAction { action, _, context in
        switch action {
        case .watch:
          return values.subject.map(ScopedSearch.watched).asEffect(cancellationToken: "watch")
        case .stopWatching:
          return context.toCancel("watch")
        default:
          return .doNothing
        }
      }
    let first = Store(
      reducer: scopedSearchReducer, state: ScopedSearchState(),
      middlewares: [middleware.asMiddleware()])
    let second = Store(
      reducer: scopedSearchReducer, state: ScopedSearchState(),
      middlewares: [middleware.asMiddleware()])
    first.dispatch(ScopedSearch.watch)
    second.dispatch(ScopedSearch.watch)
    second.dispatch(ScopedSearch.stopWatching)
    values.subject.send(1)
    #expect(first.state.watched == [1])
    #expect(second.state.watched == [])
    #expect(middleware.runningEffectCount == 1)
  }

  @Test("stress: many stores running the same feature on many threads never cancel each other")
  func stressManyStores() async {
    let rounds = isRunningUnderThreadSanitizer ? 24 : 96
    let failures = LockedBox<[String]>([])
    await concurrentPerform(rounds) { round in
      for repetition in 0..<5 {
        let scheduler = DispatchQueue.test
        let store = makeScopedSearchStore(scheduler: scheduler)
        store.dispatch(ScopedSearch.search("a"))
        scheduler.advance(by: .milliseconds(100))
        store.dispatch(ScopedSearch.search("ab"))
        store.dispatch(ScopedSearch.volume(1))
        store.dispatch(ScopedSearch.volume(2))
        scheduler.advance(by: .milliseconds(300))
        store.dispatch(ScopedSearch.search("abc"))
        scheduler.advance(by: .milliseconds(100))
        store.dispatch(ScopedSearch.cancel)
        scheduler.advance(by: .seconds(1))
        let expected = ScopedSearchState(found: ["ab"], volumes: [1, 2])
        if store.state != expected {
          failures.withLock { $0.append("round \(round).\(repetition): \(store.state)") }
        }
      }
    }
    let found = failures.withLock { $0 }
    #expect(found.isEmpty, "\(found.count) runs went wrong, the first: \(found.first ?? "")")
  }
}

/// A store whose `watch` runs `values` cancellable by ``ScopedSearchID/watch``, and whose
/// `stopWatching` runs the effect `stopping` makes.
private func makeWatchingStore(
  values: WatchedValues, stopping: @escaping @Sendable () -> Effect<ScopedSearch, Never>
) -> Store<ScopedSearchState> {
  let effects = EffectMiddleware<ScopedSearch, ScopedSearch, ScopedSearchState, Void>
    .onAction { action, _, _ in
      switch action {
      case .watch:
        return Effect(values.subject.map(ScopedSearch.watched))
          .cancellable(id: ScopedSearchID.watch)
      case .stopWatching:
        return stopping()
      default:
        return .doNothing
      }
    }
  return Store(
    reducer: scopedSearchReducer, state: ScopedSearchState(),
    middlewares: [effects.asMiddleware()])
}

/// Waits for `semaphore` on a thread of its own, at most `timeout`; `false` if it timed out.
private func waitFor(_ semaphore: DispatchSemaphore, upTo timeout: Duration) async -> Bool {
  let signalled = LockedBox(false)
  let seconds = Double(timeout.components.seconds)
  await onOtherThread {
    let result = semaphore.wait(timeout: .now() + seconds)
    signalled.withLock { $0 = result == .success }
  }
  return signalled.withLock { $0 }
}
