import BenchmarkKit
import Foundation

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

// The store's floors (issue 30): `k3` and `k7` do by hand what `j3` and `j7` do through
// CombineExStore's `Store`, so that the store's cost is a ratio in one run (`j3` within 2x of
// `k3`, `j7` within 5x of `k7`). Both builds run them: only the subject comes from the library.

/// An action of ``HandWrittenStore``.
protocol HandAction {}

/// A store written by hand, doing the work `Store.dispatch` does and nothing else: a lock, a
/// queue of the actions dispatched while one is processed (a middleware or a subscriber may
/// dispatch re-entrantly), the middlewares composed into one closure, the reducer, and a
/// subject that sends each new state.
///
/// Unlike `Store`, a dispatch from another thread during processing is queued for the
/// processing thread instead of waiting for it: the benchmark dispatches from one thread, where
/// both do the same work (two lock round trips per action).
final class HandWrittenStore<State> {
  /// Sends an action into the middleware chain.
  typealias Dispatch = (any HandAction) -> Void

  /// Given the store's dispatch and the next step of the chain, returns this step.
  typealias Middleware = (_ dispatch: @escaping Dispatch, _ next: @escaping Dispatch) -> Dispatch

  /// The store, for the middlewares' dispatch, without retaining it (as `Store` does).
  private final class Reference {
    weak var store: HandWrittenStore?
  }

  /// Guards `isProcessing` and `pending` (an `NSLock`, as `Store`'s processor uses
  /// Foundation's `NSCondition`).
  private let lock = NSLock()
  /// Whether an action is being processed.
  private var isProcessing = false
  /// The actions dispatched while one was processed, in order.
  private var pending: [any HandAction] = []
  private let chain: Dispatch
  let subject: CurrentValueSubject<State, Never>

  init(
    state: State, reducer: @escaping (inout State, any HandAction) -> Void,
    middlewares: [Middleware]
  ) {
    let subject = CurrentValueSubject<State, Never>(state)
    self.subject = subject
    var next: Dispatch = { action in
      var state = subject.value
      reducer(&state, action)
      subject.send(state)
    }
    let reference = Reference()
    let dispatch: Dispatch = { action in reference.store?.dispatch(action) }
    for middleware in middlewares.reversed() {
      next = middleware(dispatch, next)
    }
    chain = next
    reference.store = self
  }

  var state: State { subject.value }

  /// Processes `action`, then the actions dispatched meanwhile; queues it if an action is being
  /// processed.
  func dispatch(_ action: any HandAction) {
    lock.lock()
    if isProcessing {
      pending.append(action)
      lock.unlock()
      return
    }
    isProcessing = true
    lock.unlock()
    var next: (any HandAction)? = action
    while let current = next {
      chain(current)
      lock.lock()
      if pending.isEmpty {
        isProcessing = false
        next = nil
      } else {
        next = pending.removeFirst()
      }
      lock.unlock()
    }
  }
}

/// The action `k3` dispatches.
private struct HandIncrement: HandAction {
  let amount: Int
}

/// k3: `j3` by hand: actions dispatched to a store whose three middlewares pass each one on,
/// and whose reducer adds it to the state.
func handWrittenStoreDispatch(_ bench: Bench) {
  let count = bench.size(200_000)
  let passOn: HandWrittenStore<Int>.Middleware = { _, next in { action in next(action) } }
  let store = HandWrittenStore<Int>(
    state: 0,
    reducer: { state, action in
      if let increment = action as? HandIncrement { state &+= increment.amount }
    },
    middlewares: [passOn, passOn, passOn])
  bench.measure(units: count) {
    for index in 0..<count { store.dispatch(HandIncrement(amount: index)) }
  }
  bench.consume(store.state)
}

/// The actions `k7` dispatches: start a long-running effect, then cancel it by id.
private enum HandJob: HandAction {
  case start
  case stop
}

/// The running effects of `k7`'s middleware, by id, under a lock.
private final class EffectTable {
  private let lock = NSLock()
  private var effects: [ObjectIdentifier: AnyCancellable] = [:]

  /// Keeps `effect` under `id`, and returns the one it replaces.
  func keep(_ effect: AnyCancellable, for id: ObjectIdentifier) -> AnyCancellable? {
    lock.withLock { effects.updateValue(effect, forKey: id) }
  }

  /// Takes the effect kept under `id` out of the table.
  func take(_ id: ObjectIdentifier) -> AnyCancellable? {
    lock.withLock { effects.removeValue(forKey: id) }
  }

  var isEmpty: Bool { lock.withLock { effects.isEmpty } }
}

/// The id of `k7`'s effect.
private enum HandJobID {}

/// k7: `j7` by hand: a middleware answers `start` by subscribing to a publisher that never
/// ends (its values would be dispatched) and keeping the subscription by id in a locked
/// dictionary, and `stop` by taking it out and cancelling it; the reducer counts the starts.
func handWrittenEffectCycle(_ bench: Bench) {
  let count = bench.size(100_000)
  let id = ObjectIdentifier(HandJobID.self)
  let table = EffectTable()
  let jobs: HandWrittenStore<Int>.Middleware = { dispatch, next in
    { action in
      next(action)
      switch action as? HandJob {
      case .start?:
        let effect = Empty<HandJob, Never>(completeImmediately: false).sink { dispatch($0) }
        table.keep(effect, for: id)?.cancel()
      case .stop?:
        table.take(id)?.cancel()
      case nil:
        break
      }
    }
  }
  let store = HandWrittenStore<Int>(
    state: 0,
    reducer: { starts, action in
      if case .start? = action as? HandJob { starts &+= 1 }
    },
    middlewares: [jobs])
  bench.measure(units: count) {
    for _ in 0..<count {
      store.dispatch(HandJob.start)
      store.dispatch(HandJob.stop)
    }
  }
  precondition(table.isEmpty, "k7: an effect is still in flight")
  bench.consume(store.state)
}
