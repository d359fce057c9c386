import CombineEx
import Foundation

// The publisher types added for the original CombineEx's API (attemptMap, prependDynamic,
// propertyMap, the custom publishers and the aggregation operators). The operators that return
// Combine's own types (demoteFailure, flatMapLatest, the handle… family ...) are covered by
// those types' entries.

extension Registry {
  static let originalCombineEx: [RegistryEntry] = [
    .generic(
      "Publishers.AttemptMap",
      [
        CaseBuilder("attemptMap") { env in
          let canary = env.canary
          return env.ints().attemptMap { value -> Result<Int, ConformanceError> in
            canary.pass(value) == 4 ? .failure(ConformanceError(40)) : .success(value * 2)
          }
        },
        CaseBuilder("attemptMap that never fails") { env in
          env.ints().attemptMap { .success($0 + 1) }
        },
      ]),
    .generic(
      "Publishers.PrependDynamic",
      [
        CaseBuilder("prependDynamic") { env in
          let canary = env.canary
          return env.ints().prependDynamic { canary.pass(-1) }
        }
      ]),
    .generic(
      "Publishers.PropertyMap",
      [
        CaseBuilder("propertyMap") { env in
          let canary = env.canary
          return env.source(
            value: { value in [IdentifiedValue(id: value % 3, value: value)] },
            failure: ConformanceError.init
          )
          .propertyMap { canary.pass($0.value.id) }
          .map { $0.first ?? -1 }
        },
        CaseBuilder("propertyMap without removing duplicates") { env in
          env.source(
            value: { value in (0...(value % 2)).map { IdentifiedValue(id: $0, value: value) } },
            failure: ConformanceError.init
          )
          .propertyMap(removeDuplicates: false) { $0.value.value }
          .map { $0.count }
        },
      ]),
    .generic(
      "Publishers.Custom",
      [
        CaseBuilder("Publishers.Custom", traits: [.promiseKeepsSubscription, .storesValues]) {
          env in
          let source = env.drivenTrackedCallbackSource()
          return Publishers.Custom<TrackedValue, ConformanceError> { source.attach($0) }
        },
        CaseBuilder("Publishers.Custom that completes at once") { _ in
          Publishers.Custom<Int, ConformanceError> { handler in
            handler.sendValue(1)
            handler.sendValue(2)
            handler.sendCompletion(.failure(ConformanceError(3)))
          }
        },
      ]),
    .generic(
      "DeferredCustom",
      [
        CaseBuilder("DeferredCustom", traits: [.promiseKeepsSubscription, .storesValues]) { env in
          let source = env.drivenTrackedCallbackSource()
          return DeferredCustom<TrackedValue, ConformanceError> { source.attach($0) }
        }
      ]),
    .generic(
      "Publishers.Aggregate",
      [
        CaseBuilder("combineLatest of 5", traits: .combineLatest) { env in
          env.ints().combineLatest(env.ints(), env.ints(), env.ints(), env.ints())
            .map { $0.0 + $0.1 + $0.2 + $0.3 + $0.4 }
        },
        CaseBuilder("static combineLatest of 2", traits: .combineLatest) { env in
          AnyPublisher<Int, ConformanceError>.combineLatest(env.ints(), env.ints())
            .map { $0.0 * 10 + $0.1 }
        },
        CaseBuilder(
          "combineLatest(array:)", traits: [.combineLatest, .storesValues], keepsLatest: 1
        ) { env in
          AnyPublisher<TrackedValue, ConformanceError>.combineLatest(array: [
            env.trackedInts(), env.trackedInts(),
          ])
        },
        CaseBuilder("zip of 5", traits: .zip) { env in
          env.trackedInts().zip(
            env.trackedInts(), env.trackedInts(), env.trackedInts(), env.trackedInts())
        },
        CaseBuilder("zip(array:)", traits: .zip) { env in
          AnyPublisher<TrackedValue, ConformanceError>.zip(array: [
            env.trackedInts(), env.trackedInts(), env.trackedInts(),
          ])
        },
        CaseBuilder("Aggregate with a builder", traits: .combineLatest) { env in
          let (first, second) = (env.ints(), env.ints())
          let canary = env.canary
          return Publishers.Aggregate<Int, ConformanceError>(strategy: .combineLatest) {
            $0.add(first)
            $0.add(second)
          } aggregationBlock: { values in
            canary.pass(values.count) + (values[0] as! Int)
          }
        },
        CaseBuilder("combineLatest(array:) of none") { _ in
          AnyPublisher<Int, ConformanceError>.combineLatest(
            array: [AnyPublisher<Int, ConformanceError>]())
        },
      ]),
  ]
}

/// An element for `propertyMap`: identified by `id`, compared by both fields.
struct IdentifiedValue: Identifiable, Equatable {
  let id: Int
  let value: Int
}

/// A callback API, as a custom publisher wraps one: the harness drives it, and each subscription
/// of the custom publisher attaches its handler, which receives what the API sends from then on.
final class CallbackSource<Value>: @unchecked Sendable {
  // @unchecked Sendable: `handlers` and `end` are guarded by `lock`.
  private let lock = NSLockBox()
  private var handlers: [any Publishers.CustomSubscriptionHandler<Value, ConformanceError>] = []
  private var end: Subscribers.Completion<ConformanceError>?

  /// Attaches a subscription's handler; a source that already ended ends it at once.
  func attach(_ handler: any Publishers.CustomSubscriptionHandler<Value, ConformanceError>) {
    let end = lock.withLock { () -> Subscribers.Completion<ConformanceError>? in
      handlers.append(handler)
      return self.end
    }
    if let end { handler.sendCompletion(end) }
  }

  func send(_ value: Value) {
    for handler in lock.withLock({ handlers }) { handler.sendValue(value) }
  }

  func complete(_ completion: Subscribers.Completion<ConformanceError>) {
    let handlers = lock.withLock {
      () -> [any Publishers.CustomSubscriptionHandler<Value, ConformanceError>] in
      end = completion
      return self.handlers
    }
    for handler in handlers { handler.sendCompletion(completion) }
  }
}

extension ConformanceEnvironment {
  /// A ``CallbackSource`` of tracked values the harness drives (sending whatever the demand,
  /// as a callback API does); it lives until the run ends.
  func drivenTrackedCallbackSource() -> CallbackSource<TrackedValue> {
    let source = CallbackSource<TrackedValue>()
    driveTracked(
      "a callback API", keepAlive: source, canFail: true, send: { source.send($0) },
      complete: { source.complete(ConformanceEnvironment.completion(for: $0)) })
    return source
  }
}
