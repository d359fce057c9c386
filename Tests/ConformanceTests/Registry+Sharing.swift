import CombineEx
import CombineExStore

extension Registry {
  // MARK: Combining the latest values, zipping, buffering, sharing

  static let sharing: [RegistryEntry] = [
    .generic(
      "Publishers.CombineLatest",
      [
        CaseBuilder("combineLatest", traits: [.combineLatest, .storesValues], keepsLatest: 1) {
          env in
          env.trackedInts().combineLatest(env.trackedInts())
        },
        CaseBuilder(
          "combineLatest with a transform", traits: .combineLatest
        ) { env in
          let canary = env.canary
          return env.ints().combineLatest(env.ints()) { canary.pass($0) + $1 }
        },
      ]),
    .generic(
      "Publishers.CombineLatest3",
      [
        CaseBuilder("combineLatest of 3", traits: .combineLatest) {
          env in
          env.ints().combineLatest(env.ints(), env.ints())
        }
      ]),
    .generic(
      "Publishers.CombineLatest4",
      [
        CaseBuilder("combineLatest of 4", traits: .combineLatest) {
          env in
          env.ints().combineLatest(env.ints(), env.ints(), env.ints())
        }
      ]),
    .generic(
      "Publishers.Zip",
      [
        CaseBuilder("zip", traits: .zip) { env in
          env.trackedInts().zip(env.trackedInts())
        },
        CaseBuilder("zip with a transform", traits: [.timingDependent, .waitsOnAnotherUpstream]) {
          env in
          let canary = env.canary
          return env.ints().zip(env.ints()) { canary.pass($0) * 10 + $1 }
        },
      ]),
    .generic(
      "Publishers.Zip3",
      [
        CaseBuilder("zip of 3", traits: .zip) { env in
          env.trackedInts().zip(env.trackedInts(), env.trackedInts())
        }
      ]),
    .generic(
      "Publishers.Zip4",
      [
        CaseBuilder("zip of 4", traits: .zip) { env in
          env.trackedInts().zip(env.trackedInts(), env.trackedInts(), env.trackedInts())
        }
      ]),
    .generic(
      "Publishers.DropUntilOutput",
      [
        // As in Combine, a dropped value spends the demand it was sent for, and one that was
        // not requested stops the program.
        CaseBuilder(
          "drop(untilOutputFrom:)",
          traits: [.timingDependent, .spendsDemandWithoutOutput, .unrequestedValueIsMisuse]
        ) { env in
          env.ints().drop(untilOutputFrom: env.ints())
        }
      ]),
    .generic(
      "Publishers.PrefixUntilOutput",
      [
        CaseBuilder("prefix(untilOutputFrom:)", traits: .timingDependent) { env in
          env.ints().prefix(untilOutputFrom: env.ints())
        }
      ]),
    .generic(
      "Publishers.Buffer",
      [
        CaseBuilder("buffer(keepFull, dropNewest)", traits: [.timingDependent, .storesValues]) {
          env in
          env.trackedInts().buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
        },
        CaseBuilder("buffer(byRequest, dropOldest)", traits: [.timingDependent, .storesValues]) {
          env in
          env.trackedInts().buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
        },
        CaseBuilder("buffer(keepFull, customError)", traits: .timingDependent) { env in
          let canary = env.canary
          return env.ints().buffer(
            size: 1, prefetch: .keepFull,
            whenFull: .customError { canary.pass(ConformanceError(70)) })
        },
      ]),
    .generic(
      "Publishers.Multicast",
      [
        CaseBuilder("multicast(subject:), connected", traits: [.keepsUpstream, .timingDependent]) {
          env in
          let multicast = env.ints().multicast(subject: PassthroughSubject())
          env.retain(AnyCancellable(multicast.connect()))
          return multicast
        },
        CaseBuilder("multicast { subject }.autoconnect()", traits: .timingDependent) { env in
          env.ints().multicast { PassthroughSubject() }.autoconnect()
        },
      ]),
    .generic(
      "Publishers.Share",
      [CaseBuilder("share", traits: .timingDependent) { env in env.ints().share() }]),
  ]

  // MARK: Cold publishers and futures (CombineEx)

  static let cold: [RegistryEntry] = [
    .generic(
      "AnyDeferredPublisher",
      [
        CaseBuilder("AnyDeferredPublisher { publisher }", traits: .passThrough) { env in
          let canary = env.canary
          return AnyDeferredPublisher { [unowned env] in canary.pass(env.ints()) }
        },
        CaseBuilder("AnyDeferredPublisher.just") { _ in
          AnyDeferredPublisher<Int, ConformanceError>.just(3)
        },
        CaseBuilder("AnyDeferredPublisher.fail") { _ in
          AnyDeferredPublisher<Int, ConformanceError>.fail(ConformanceError(8))
        },
        CaseBuilder("AnyDeferredPublisher.empty") { _ in
          AnyDeferredPublisher<Int, ConformanceError>.empty()
        },
        CaseBuilder("Action.apply") { env in
          let action = Action<Void, Int, ConformanceError> { [unowned env] in
            AnyDeferredPublisher { env.ints() }
          }
          env.retain(action)
          return action.apply()
        },
        CaseBuilder("AnyDeferredPublisher(createPublisher:)", traits: .passThrough) { env in
          let canary = env.canary
          return AnyDeferredPublisher(createPublisher: { [unowned env] in canary.pass(env.ints()) })
        },
        CaseBuilder("Action.apply, any-publisher closure") { env in
          let action = Action<Void, Int, ConformanceError> { [unowned env] _ in
            env.ints().eraseToAnyPublisher()
          }
          env.retain(action)
          return action.apply()
        },
        CaseBuilder("Action.applyIfPossible") { env in
          let action = Action<Void, Int, ConformanceError> { [unowned env] in
            AnyDeferredPublisher { env.ints() }
          }
          env.retain(action)
          return action.applyIfPossible()
        },
      ]),
    .generic(
      "DeferredFuture",
      [
        CaseBuilder("DeferredFuture fulfilled later", traits: .promiseKeepsSubscription) { env in
          let promise = PromiseBox<Int, ConformanceError>()
          env.drive(
            "the deferred future's promise", keepAlive: promise, canFail: true,
            send: { promise.fulfil(.success($0)) },
            complete: { end in
              if case .failure(let id) = end {
                promise.fulfil(.failure(ConformanceError(id)))
              } else {
                promise.fulfil(.success(-1))
              }
            })
          return DeferredFuture<Int, ConformanceError> { promise.store($0) }
        },
        CaseBuilder("DeferredFuture.just") { _ in DeferredFuture<Int, ConformanceError>.just(4) },
        CaseBuilder("DeferredFuture.fail") { _ in
          DeferredFuture<Int, ConformanceError>.fail(ConformanceError(9))
        },
        CaseBuilder("DeferredFuture.closure") { env in
          let canary = env.canary
          return DeferredFuture<Int, ConformanceError>.closure { canary.pass(.success(6)) }
        },
        CaseBuilder("DeferredFuture.successClosure") { _ in
          DeferredFuture<Int, ConformanceError>.successClosure { 2 }
        },
        CaseBuilder("DeferredFuture.failureClosure") { _ in
          DeferredFuture<Int, ConformanceError>.failureClosure { ConformanceError(3) }
        },
      ] + deferredFutureOperators),
    .generic(
      "AnyDeferredFuture",
      [
        CaseBuilder("DeferredFuture.eraseToAnyDeferredFuture") { _ in
          DeferredFuture<Int, ConformanceError> { $0(.success(5)) }.eraseToAnyDeferredFuture()
        },
        CaseBuilder("AnyDeferredFuture.fail") { _ in
          AnyDeferredFuture<Int, ConformanceError>.fail(ConformanceError(1))
        },
        CaseBuilder("AnyDeferredFuture(attemptToFulfill:)") { env in
          let canary = env.canary
          return AnyDeferredFuture<Int, ConformanceError>(attemptToFulfill: { promise in
            promise(canary.pass(.success(7)))
          })
        },
      ]),
    .tailored(
      "AsyncSequencePublisher",
      reason:
        "delivers from a task of its own, which the synchronous harness cannot step; its demand, "
        + "cancellation and release are checked by awaiting its events",
      checkedBy: "TailoredTests.asyncSequencePublisherHonoursDemandAndCancel"),
  ]

  // MARK: Property composition (CombineEx): each returns a `Property`

  static let propertyCompositions: [CaseBuilder] = [
    CaseBuilder("Property.map", traits: .neverCompletes) { env in
      let canary = env.canary
      return env.drivenProperty().map { canary.pass($0) * 2 }
    },
    CaseBuilder("Property.removeDuplicates", traits: .neverCompletes) { env in
      env.drivenProperty().removeDuplicates()
    },
    CaseBuilder("Property.filter(initial:)", traits: .neverCompletes) { env in
      env.drivenProperty().filter(initial: 0) { $0 != 1 }
    },
    CaseBuilder("Property.combinePrevious", traits: .neverCompletes) { env in
      env.drivenProperty().combinePrevious(0)
    },
    CaseBuilder("Property.combineLatest(with:)", traits: [.neverCompletes, .timingDependent]) {
      env in
      env.drivenProperty().combineLatest(with: env.drivenProperty())
    },
    CaseBuilder(
      "Property.zip(with:)",
      traits: [.neverCompletes, .timingDependent, .storesValues, .keepsLatestOutput],
      keepsLatest: 1
    ) { env in
      env.drivenTrackedProperty().zip(with: env.drivenTrackedProperty())
    },
    CaseBuilder("Property.flatMap", traits: [.neverCompletes, .timingDependent]) { env in
      let inner = env.drivenProperty()
      return env.drivenProperty().flatMap { _ in inner }
    },
  ]

  // MARK: The store's publishers (CombineExStore)

  static let store: [RegistryEntry] = [
    .generic(
      "Effect",
      [
        CaseBuilder("Effect(publisher)", traits: .passThrough) { env in Effect(env.ints()) },
        CaseBuilder("Effect(value:)") { _ in Effect<Int, ConformanceError>(value: 2) },
        CaseBuilder("Effect(error:)") { _ in
          Effect<Int, ConformanceError>(error: ConformanceError(3))
        },
        CaseBuilder("Effect.none") { _ in Effect<Int, ConformanceError>.none },
        CaseBuilder("Effect.merge", traits: .timingDependent) { env in
          Effect.merge(Effect(env.ints()), Effect(env.ints()))
        },
        CaseBuilder("Effect.cancellable(id:)") { env in
          Effect(env.ints()).cancellable(id: EffectID.next())
        },
        CaseBuilder("Effect.concatenate") { env in
          Effect.concatenate(Effect(env.ints()), Effect(env.ints()))
        },
        CaseBuilder("Effect.run", traits: .storesValues) { env in
          let handle = HandleBox<Effect<TrackedValue, ConformanceError>.Subscriber>()
          env.driveTracked(
            "the effect's subscriber", keepAlive: handle, canFail: true,
            send: { handle.value?.send($0) },
            complete: { handle.value?.send(completion: ConformanceEnvironment.completion(for: $0)) }
          )
          let canary = env.canary
          return Effect<TrackedValue, ConformanceError>.run { subscriber in
            handle.value = subscriber
            return AnyCancellable { _ = canary }
          }
        },
      ] + effectOperators),
    .generic(
      "Publishers.HandleCleanup",
      [
        CaseBuilder("handleCleanup") { env in
          let canary = env.canary
          return env.ints().handleCleanup { _ = canary }
        }
      ]),
  ]
}

extension CaseTraits {
  /// `combineLatest`: what arrives depends on timing, and a value that makes no output spends
  /// its upstream's demand.
  static let combineLatest: CaseTraits = [.timingDependent, .spendsDemandWithoutOutput]
  /// `zip` of tracked values: what arrives depends on timing, it waits for the input that has
  /// not produced, and it queues the values of the others.
  static let zip: CaseTraits = [.timingDependent, .waitsOnAnotherUpstream, .storesValues]
}

/// Holds a promise that a deferred future hands over when it is subscribed, so that a driven
/// source can fulfil it.
/// A result that arrives before the promise (the future is subscribed later, as the inner
/// future of `flatMap` or the replacement of `catch` are) is kept and given to every promise
/// stored afterwards (as when `retry` subscribes again).
final class PromiseBox<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: `promise` and `result` are guarded by `lock`.
  private let lock = NSLockBox()
  private var promise: (@Sendable (Result<Output, Failure>) -> Void)?
  private var result: Result<Output, Failure>?

  func store(_ promise: @escaping @Sendable (Result<Output, Failure>) -> Void) {
    let result = lock.withLock { () -> Result<Output, Failure>? in
      self.promise = promise
      return self.result
    }
    if let result { promise(result) }
  }

  func fulfil(_ result: Result<Output, Failure>) {
    lock.withLock { () -> (@Sendable (Result<Output, Failure>) -> Void)? in
      self.result = result
      return promise
    }?(result)
  }
}

/// A mutable reference to a value, for closures that hand it over later.
final class HandleBox<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is guarded by `lock`.
  private let lock = NSLockBox()
  private var stored: Value?

  var value: Value? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
