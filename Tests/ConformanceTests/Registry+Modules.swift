import CombineEx
import CombineExStore
import Foundation
import Synchronization

// The publishers that CombineEx's and CombineExStore's types hand out, registered as cases of
// the public types they produce (`AnyPublisher`, `Property`, `DeferredFuture`, `Effect`).

extension Registry {
  // MARK: Action's streams and the store's publishers (AnyPublisher)

  static let moduleAnyPublishers: [CaseBuilder] = [
    CaseBuilder("Action.values", traits: [.neverCompletes, .timingDependent]) { env in
      env.drivenAction().values
    },
    CaseBuilder("Action.errors", traits: [.neverCompletes, .timingDependent]) { env in
      env.drivenAction().errors
    },
    CaseBuilder("Action.completed", traits: [.neverCompletes, .timingDependent]) { env in
      env.drivenAction().completed.map { -1 }
    },
    CaseBuilder("Action.disabledErrors", traits: [.neverCompletes, .timingDependent]) { env in
      env.drivenAction(enabled: false).disabledErrors.map { -1 }
    },
    CaseBuilder("Store.statePublisher", traits: [.neverCompletes, .timingDependent]) { env in
      env.drivenStore().statePublisher
    },
    CaseBuilder("Store.publisher(for: keyPath)", traits: [.neverCompletes, .timingDependent]) {
      env in
      env.drivenStore().publisher(for: \.self)
    },
    CaseBuilder("Store.publisher(for: transform)", traits: [.neverCompletes, .timingDependent]) {
      env in
      let canary = env.canary
      return env.drivenStore().publisher { canary.pass($0) / 2 }
    },
  ]

  // MARK: Action.isExecuting (Property)

  static let moduleProperties: [CaseBuilder] = [
    CaseBuilder("Action.isExecuting", traits: [.neverCompletes, .timingDependent]) { env in
      env.drivenAction().isExecuting
    },
    CaseBuilder("Action.isEnabled", traits: [.neverCompletes, .timingDependent]) { env in
      env.drivenAction().isEnabled
    },
  ]

  // MARK: DeferredFuture's operators (each returns a DeferredFuture)

  static let deferredFutureOperators: [CaseBuilder] = [
    CaseBuilder("DeferredFuture.map", traits: .promiseKeepsSubscription) { env in
      let canary = env.canary
      return env.drivenFuture().map { canary.pass($0) + 1 }
    },
    CaseBuilder("DeferredFuture.tryMap", traits: .promiseKeepsSubscription) { env in
      env.drivenFuture().tryMap { value -> Int in
        if value == 2 { throw ConformanceError(12) }
        return value
      }
    },
    CaseBuilder("DeferredFuture.mapError", traits: .promiseKeepsSubscription) { env in
      env.drivenFuture().mapError { ConformanceError($0.id + 100) }
    },
    CaseBuilder("DeferredFuture.flatMap", traits: .promiseKeepsSubscription) { env in
      let inner = env.drivenFuture()
      return env.drivenFuture().flatMap { _ in inner }
    },
    CaseBuilder(
      "DeferredFuture.zip", traits: [.promiseKeepsSubscription, .timingDependent]
    ) { env in
      env.drivenFuture().zip(env.drivenFuture())
    },
    CaseBuilder(
      "DeferredFuture.combineLatest", traits: [.promiseKeepsSubscription, .timingDependent]
    ) { env in
      env.drivenFuture().combineLatest(env.drivenFuture())
    },
    CaseBuilder("DeferredFuture.catch", traits: .promiseKeepsSubscription) { env in
      let replacement = env.drivenFuture()
      return env.drivenFuture().catch { _ in replacement }
    },
    CaseBuilder("DeferredFuture.replaceError", traits: .promiseKeepsSubscription) { env in
      env.drivenFuture().replaceError(with: -7)
    },
    CaseBuilder("DeferredFuture.retry", traits: .promiseKeepsSubscription) { env in
      env.drivenFuture().retry(1)
    },
    CaseBuilder("DeferredFuture.delay", traits: .promiseKeepsSubscription) { env in
      let future = env.drivenFuture()
      return future.delay(for: .seconds(1), scheduler: env.clock().scheduler)
    },
    CaseBuilder("DeferredFuture.receive(on:)", traits: .promiseKeepsSubscription) { env in
      let future = env.drivenFuture()
      return future.receive(on: env.clock().scheduler)
    },
    CaseBuilder("DeferredFuture.handleEvents", traits: .promiseKeepsSubscription) { env in
      let canary = env.canary
      return env.drivenFuture().handleEvents(receiveOutput: { _ in _ = canary })
    },
    // The original CombineEx's future operators.
    CaseBuilder("DeferredFuture.futureLiftOutput", traits: .promiseKeepsSubscription) { env in
      let canary = env.canary
      return env.drivenFuture().futureLiftOutput { value, promise in
        promise(.success(canary.pass(value) * 2))
      }
    },
    CaseBuilder("DeferredFuture.futureLiftFailure", traits: .promiseKeepsSubscription) { env in
      env.drivenFuture().futureLiftFailure {
        (error, promise: @escaping DeferredFuture<Int, ConformanceError>.Promise) in
        promise(.failure(ConformanceError(error.id + 1)))
      }
    },
    CaseBuilder("DeferredFuture.futureLiftResult", traits: .promiseKeepsSubscription) { env in
      env.drivenFuture().futureLiftResult {
        (result, promise: @escaping DeferredFuture<Int, ConformanceError>.Promise) in
        promise(result.map { $0 + 1 })
      }
    },
    CaseBuilder("DeferredFuture.replaceNil", traits: .promiseKeepsSubscription) { env in
      env.drivenFuture().map { $0 == 2 ? nil : $0 }.replaceNil(with: -2)
    },
    CaseBuilder("DeferredFuture.flatMapError", traits: .promiseKeepsSubscription) { env in
      let replacement = env.drivenFuture()
      return env.drivenFuture().flatMapError { _ in replacement }
    },
    CaseBuilder("DeferredFuture.encode.decode", traits: .promiseKeepsSubscription) { env in
      env.drivenFuture().encode(encoder: JSONEncoder()).decode(
        item: Int.self, decoder: JSONDecoder())
    },
    CaseBuilder("DeferredFuture.handle hooks", traits: .promiseKeepsSubscription) { env in
      let canary = env.canary
      return env.drivenFuture()
        .handleSubscription { _ = canary }
        .handleValue { _ in _ = canary }
        .handleError { _ in _ = canary }
        .handleFinished { _ = canary }
        .handleCompletion { _ in _ = canary }
        .handleCancel { _ = canary }
    },
    CaseBuilder("DeferredFuture.delay(for: deadline)", traits: .promiseKeepsSubscription) { env in
      let future = env.drivenFuture()
      let scheduler = env.clock().scheduler
      return future.delay(for: scheduler.now.advanced(by: .seconds(1)), scheduler: scheduler)
    },
    CaseBuilder("DeferredFuture.timeout(deadline)", traits: .promiseKeepsSubscription) { env in
      let future = env.drivenFuture()
      let scheduler = env.clock().scheduler
      return future.timeout(
        scheduler.now.advanced(by: .seconds(3)), scheduler: scheduler,
        customError: { ConformanceError(30) })
    },
  ]

  // MARK: Effect's operators and constructors (each returns an Effect)

  static let effectOperators: [CaseBuilder] = [
    CaseBuilder("Effect.map", traits: .passThrough) { env in
      let canary = env.canary
      return Effect(env.ints()).map { canary.pass($0) * 3 }
    },
    CaseBuilder("Effect.future") { env in
      let canary = env.canary
      return Effect<Int, ConformanceError>.future { promise in
        _ = canary
        promise(.success(6))
      }
    },
    CaseBuilder("Effect.result") { _ in
      Effect<Int, ConformanceError>.result { .failure(ConformanceError(4)) }
    },
    CaseBuilder("Effect.catching") { _ in Effect<Int, any Error>.catching { 9 } },
    CaseBuilder("Effect.fireAndForget") { env in
      let canary = env.canary
      return Effect<Int, ConformanceError>.fireAndForget { _ = canary }
    },
    CaseBuilder("Effect.cancel(id:)") { env in
      Effect<Int, ConformanceError>.cancel(id: EffectID.next())
    },
    CaseBuilder("Effect.debounce(id:)") { env in
      let upstream = Effect(env.ints())
      return upstream.debounce(
        id: EffectID.next(), for: .seconds(1), scheduler: env.clock().scheduler)
    },
    CaseBuilder("Effect.throttle(id:)", traits: .timingDependent) { env in
      let upstream = Effect(env.ints())
      return upstream.throttle(
        id: EffectID.next(), for: .seconds(1), scheduler: env.clock().scheduler,
        latest: true)
    },
  ]
}

extension ConformanceEnvironment {
  /// An `Action` of `Int`s the harness drives: each driven value applies it once; an odd value
  /// makes the execution fail. The action lives until the run ends.
  func drivenAction(enabled: Bool = true) -> Action<Int, Int, ConformanceError> {
    let action = Action<Int, Int, ConformanceError>(enabledIf: Property(value: enabled)) {
      input in
      input % 2 == 0 ? .just(input) : .fail(ConformanceError(input))
    }
    drive(
      "the action", keepAlive: action, canFail: false,
      send: { value in
        _ = action.apply(value).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
      }, complete: nil)
    return action
  }

  /// A `Store` of an `Int` the harness drives: each driven value is dispatched and becomes the
  /// state. The store lives until the run ends.
  func drivenStore() -> Store<Int> {
    let store = Store<Int>(
      reducer: { state, action in
        if let set = action as? SetState { state = set.value }
      }, state: -1)
    drive(
      "the store", keepAlive: store, canFail: false, send: { store.dispatch(SetState(value: $0)) },
      complete: nil)
    return store
  }

  /// A `DeferredFuture` whose promise the harness fulfils (with a value, or a failure).
  func drivenFuture() -> DeferredFuture<Int, ConformanceError> {
    let promise = PromiseBox<Int, ConformanceError>()
    drive(
      "a deferred future's promise", keepAlive: promise, canFail: true,
      send: { promise.fulfil(.success($0)) },
      complete: { end in
        if case .failure(let id) = end {
          promise.fulfil(.failure(ConformanceError(id)))
        } else {
          promise.fulfil(.success(-1))
        }
      })
    return DeferredFuture<Int, ConformanceError> { promise.store($0) }
  }
}

/// The action the driven store's reducer applies.
struct SetState: StoreAction {
  let value: Int
}

/// Fresh ids for effects, whose cancellation and throttling state lives in a registry shared by
/// the whole process: each run gets its own, so that no state carries over between runs.
enum EffectID {
  private static let counter = Atomic<Int>(0)

  static func next() -> String {
    "conformance-\(counter.add(1, ordering: .relaxed).newValue)"
  }
}
