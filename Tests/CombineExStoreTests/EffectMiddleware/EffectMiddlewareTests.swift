import CombineExStore
import CombineExTesting
import Foundation
import Testing

/// Requests the tests' effect middlewares react to.
enum Request: StoreAction, Equatable {
  case load(Int)
  case cancel(Int)
  case ignore
}

/// What their effects answer.
enum Response: StoreAction, Equatable {
  case loaded(Int)
  case note(String)
}

@Suite("EffectMiddleware")
struct EffectMiddlewareTests {
  /// Logs responses (a loaded value is also added to the count), and the other actions as
  /// `logReducer` does.
  static func reduce(_ log: inout Log, _ action: any StoreAction) {
    if let response = action as? Response {
      switch response {
      case .loaded(let value):
        log.count += value
        log.names.append("loaded \(value)")
      case .note(let text):
        log.names.append(text)
      }
    } else {
      logReducer(&log, action)
    }
  }

  /// A store with the reducer that logs responses and the given middlewares.
  func makeStore(_ middlewares: [Middleware<Log>]) -> Store<Log> {
    Store(reducer: Self.reduce, state: Log(), middlewares: middlewares)
  }

  /// The same store in a ``TestStore``, which checks every state change and received action.
  func makeTestStore(_ middlewares: [Middleware<Log>]) -> TestStore<Log> {
    TestStore(reducer: Self.reduce, state: Log(), middlewares: middlewares)
  }

  @Test("onAction runs after the reducer, with the state after the reduction")
  func afterReducer() {
    let seen = Recorder<[String]>()
    let middleware = EffectMiddleware<Named, Response, Log, Void>.onAction { _, state, _ in
      seen.append(state.names)
      return .doNothing
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Named("a"))
    store.dispatch(Named("b"))
    #expect(seen.values == [["a"], ["a", "b"]])
  }

  @Test("an effect that only cancels, or does nothing, is reported while it runs, then forgotten")
  func cancellingEffectTracked() {
    enum RunID {}
    let subject = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      switch action {
      case .load: Effect(subject).cancellable(id: ObjectIdentifier(RunID.self))
      case .cancel: .cancel(id: ObjectIdentifier(RunID.self))
      case .ignore: .doNothing
      }
    }
    let events = Recorder<String>()
    let store = makeStore([middleware.asMiddleware()])
    EffectTracking.$observer.withValue({ _ in
      events.append("start")
      return { events.append("end") }
    }) {
      store.dispatch(Request.load(1))
      #expect(middleware.runningEffectCount == 1)
      store.dispatch(Request.cancel(1))
      store.dispatch(Request.ignore)
    }
    subject.send(.loaded(1))
    // The run, the cancel (which ends the run, then itself), the effect that does nothing.
    #expect(events.values == ["start", "start", "end", "end", "start", "end"])
    #expect(middleware.runningEffectCount == 0)
    #expect(store.state.count == 0)
  }

  @Test("onAction is called only for actions of the input type")
  func onlyInputActions() {
    let seen = Recorder<Request>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      seen.append(action)
      return .doNothing
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Increment())
    store.dispatch(Request.ignore)
    store.dispatch(Named("x"))
    #expect(seen.values == [.ignore])
  }

  @Test("every action passes on down the chain")
  func passesDown() {
    let passed = Recorder<String>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { _, _, _ in
      .doNothing
    }
    let store = makeStore([middleware.asMiddleware(), recordingMiddleware(passed)])
    store.dispatch(Request.ignore)
    store.dispatch(Increment())
    #expect(passed.values == ["ignore", "Increment()"])
    #expect(store.state.names == ["Request", "Increment"])
  }

  @Test("the effect's outputs are dispatched to the store, after the action that caused them")
  func outputsDispatched() {
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      guard case .load(let value) = action else { return .doNothing }
      return .sequence(.note("start \(value)"), .loaded(value))
    }
    let store = makeTestStore([middleware.asMiddleware()])
    store.send(Request.load(3)) { $0.names = ["Request"] }
    store.receive(Response.note("start 3")) { $0.names.append("start 3") }
    store.receive(Response.loaded(3)) {
      $0.count = 3
      $0.names.append("loaded 3")
    }
    store.finish()
  }

  @Test("outputs that arrive later, from another thread, are dispatched")
  func laterOutputs() async {
    // Left when the promise's completion call has returned: by then the output was dispatched
    // and the effect has finished (waiting for the state alone would race with the latter).
    let completed = DispatchGroup()
    completed.enter()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      guard case .load(let value) = action else { return .doNothing }
      return .promise { completion in
        DispatchQueue.global().async {
          completion(.loaded(value))
          completed.leave()
        }
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.load(5))
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      completed.notify(queue: .global()) { continuation.resume() }
    }
    #expect(store.state.names == ["Request", "loaded 5"])
    #expect(store.state.count == 5)
    #expect(middleware.runningEffectCount == 0)
  }

  @Test("the context carries the dependencies given to inject")
  func dependencies() {
    struct Client { let multiplier: Int }
    let middleware = EffectMiddleware<Request, Response, Log, Client>.onAction {
      action, _, context in
      guard case .load(let value) = action else { return .doNothing }
      return .just(.loaded(value * context.dependencies.multiplier))
    }
    let store = makeStore([middleware.inject(Client(multiplier: 10)).asMiddleware()])
    store.dispatch(Request.load(2))
    #expect(store.state.count == 20)
  }

  @Test("the context carries the source of the action")
  func contextSource() {
    let sources = Recorder<ActionSource>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { _, _, context in
      sources.append(context.source)
      return .doNothing
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(
      Request.ignore, from: ActionSource(file: "View.swift", function: "tap()", line: 9))
    #expect(sources.values == [ActionSource(file: "View.swift", function: "tap()", line: 9)])
  }

  @Test("a new effect with the same token cancels the old one before it starts")
  func tokenReplacement() {
    let log = Recorder<String>()
    let responses = [1: PassthroughSubject<Response, Never>(), 2: PassthroughSubject()]
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      guard case .load(let value) = action else { return .doNothing }
      return Deferred { () -> PassthroughSubject<Response, Never> in
        log.append("start \(value)")
        return responses[value]!
      }
      .handleEvents(receiveCancel: { log.append("cancel \(value)") })
      .asEffect(cancellationToken: "load")
    }
    let store = makeTestStore([middleware.asMiddleware()])
    store.send(Request.load(1)) { $0.names = ["Request"] }
    store.send(Request.load(2)) { $0.names.append("Request") }
    #expect(log.values == ["start 1", "cancel 1", "start 2"])
    #expect(middleware.runningEffectCount == 1)
    responses[1]!.send(.loaded(1))  // the cancelled effect no longer listens
    responses[2]!.send(.loaded(2))
    store.receive(Response.loaded(2)) {
      $0.count = 2
      $0.names.append("loaded 2")
    }
    responses[2]!.send(completion: .finished)
    store.finish()
  }

  @Test("toCancel cancels the effect under the token at once")
  func toCancel() {
    let cancels = Counter()
    let responses = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction {
      action, _, context in
      switch action {
      case .load(let value):
        return responses.handleEvents(receiveCancel: { cancels.increment() })
          .asEffect(cancellationToken: value)
      case .cancel(let value):
        return context.toCancel(value)
      case .ignore:
        return .doNothing
      }
    }
    let store = makeTestStore([middleware.asMiddleware()])
    store.send(Request.load(1)) { $0.names = ["Request"] }
    store.send(Request.load(2)) { $0.names.append("Request") }
    store.send(Request.cancel(1)) { $0.names.append("Request") }
    #expect(cancels.count == 1)
    #expect(middleware.runningEffectCount == 1)
    // Only the effect under token 2 still listens: the note is received once.
    responses.send(.note("still listening"))
    store.receive(Response.note("still listening")) { $0.names.append("still listening") }
    responses.send(completion: .finished)
    store.finish()
  }

  @Test("an effect cancelled before its subscription arrives cancels that subscription")
  func cancelledBeforeSubscription() {
    let scheduler = DispatchQueue.test
    let subscriptions = Counter()
    let cancels = Counter()
    let responses = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction {
      action, _, context in
      switch action {
      case .load(let value):
        return responses.handleEvents(
          receiveSubscription: { _ in subscriptions.increment() },
          receiveCancel: { cancels.increment() }
        )
        .subscribe(on: scheduler)
        .asEffect(cancellationToken: value)
      case .cancel(let value):
        return context.toCancel(value)
      case .ignore:
        return .doNothing
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.load(1))
    store.dispatch(Request.cancel(1))
    #expect(middleware.runningEffectCount == 0)
    #expect(subscriptions.count == 0)
    scheduler.advance()  // the subscription arrives now, to a run that is over
    #expect(subscriptions.count == 1)
    #expect(cancels.count == 1)
    responses.send(.loaded(5))
    #expect(store.state.count == 0)
  }

  @Test("toCancel with an unknown token does nothing")
  func toCancelUnknown() {
    let responses = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction {
      action, _, context in
      switch action {
      case .load(let value): return responses.asEffect(cancellationToken: value)
      case .cancel(let value): return context.toCancel(value)
      case .ignore: return .doNothing
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.load(1))
    store.dispatch(Request.cancel(99))
    #expect(middleware.runningEffectCount == 1)
    responses.send(.loaded(4))
    #expect(store.state.count == 4)
  }

  @Test("toCancel can be kept and called later, from another thread")
  func toCancelLater() async {
    let kept = Shared<EffectMiddleware<Request, Response, Log, Void>.Context?>(nil)
    let responses = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction {
      action, _, context in
      kept.value = context
      return responses.asEffect(cancellationToken: "stream")
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.ignore)
    let context = kept.value!
    await onOtherThread { context.toCancel("stream") }
    #expect(middleware.runningEffectCount == 0)
    responses.send(.loaded(1))
    #expect(store.state.count == 0)
  }

  @Test("tokens are told apart by type as well as value")
  func tokensByType() {
    let responses = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction {
      action, _, context in
      switch action {
      case .load(let value):
        return .merge(
          responses.asEffect(cancellationToken: value),
          responses.asEffect(cancellationToken: "\(value)"))
      case .cancel(let value):
        return context.toCancel(value)
      case .ignore:
        return .doNothing
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.load(1))
    store.dispatch(Request.cancel(1))
    // `merge` produced one effect without a token: nothing was cancelled.
    #expect(middleware.runningEffectCount == 1)
    responses.send(.loaded(1))
    #expect(store.state.count == 2)
  }

  @Test("an Int token and a String token with the same text are different tokens")
  func intAndStringTokens() {
    let intStream = PassthroughSubject<Response, Never>()
    let stringStream = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction {
      action, _, context in
      switch action {
      case .load(1): return intStream.asEffect(cancellationToken: 1)
      case .load: return stringStream.asEffect(cancellationToken: "1")
      case .cancel: return context.toCancel("1")
      case .ignore: return .doNothing
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.load(1))
    store.dispatch(Request.load(2))
    store.dispatch(Request.cancel(0))
    intStream.send(.loaded(1))
    stringStream.send(.loaded(100))
    #expect(store.state.count == 1)
  }

  @Test("finished effects are removed, with or without a token")
  func finishedRemoved() {
    let pending = PassthroughSubject<Response, Never>()
    let tokened = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      switch action {
      case .load(1): return pending.asEffect()
      case .load: return tokened.asEffect(cancellationToken: "t")
      default: return .just(.note("sync"))
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.ignore)
    #expect(middleware.runningEffectCount == 0)  // finished synchronously
    store.dispatch(Request.load(1))
    store.dispatch(Request.load(2))
    #expect(middleware.runningEffectCount == 2)
    pending.send(completion: .finished)
    #expect(middleware.runningEffectCount == 1)
    tokened.send(completion: .finished)
    #expect(middleware.runningEffectCount == 0)
  }

  @Test("a completed tokened effect does not disturb a later one with the same token")
  func completedTokenForgotten() {
    let first = PassthroughSubject<Response, Never>()
    let second = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction {
      action, _, context in
      switch action {
      case .load(1): return first.asEffect(cancellationToken: "t")
      case .load: return second.asEffect(cancellationToken: "t")
      case .cancel: return context.toCancel("t")
      case .ignore: return .doNothing
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.load(1))
    first.send(completion: .finished)
    store.dispatch(Request.load(2))
    #expect(middleware.runningEffectCount == 1)
    second.send(.loaded(2))
    store.dispatch(Request.cancel(0))
    second.send(.loaded(3))
    #expect(store.state.count == 2)
    #expect(middleware.runningEffectCount == 0)
  }

  @Test("stress: a replaced effect completing late never evicts its successor")
  func stressLateCompletion() async {
    let rounds = isRunningUnderThreadSanitizer ? 100 : 1_000
    let subjects = Shared<[PassthroughSubject<Response, Never>]>([])
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction {
      action, _, context in
      switch action {
      case .load(let index):
        return subjects.value[index].asEffect(cancellationToken: "t")
      case .cancel:
        return context.toCancel("t")
      case .ignore:
        return .doNothing
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    for round in 0..<rounds {
      subjects.value = [PassthroughSubject(), PassthroughSubject()]
      store.dispatch(Request.load(0))
      let old = subjects.value[0]
      // The old effect completes on one thread while its successor replaces it on another.
      await concurrentPerform(2) { side in
        if side == 0 { old.send(completion: .finished) } else { store.dispatch(Request.load(1)) }
      }
      #expect(middleware.runningEffectCount == 1, "round \(round)")
      // The successor is still filed under the token: cancelling it leaves nothing.
      store.dispatch(Request.cancel(0))
      #expect(middleware.runningEffectCount == 0, "round \(round)")
    }
  }

  @Test("<> runs both handlers, left first, and dispatches both outputs")
  func composition() {
    let first = EffectMiddleware<Request, Response, Log, Void>.onAction { _, _, _ in
      .just(.note("first"))
    }
    let second = EffectMiddleware<Request, Response, Log, Void>.onAction { _, _, _ in
      .just(.note("second"))
    }
    let store = makeTestStore([(first <> second).asMiddleware()])
    store.send(Request.ignore) { $0.names = ["Request"] }
    store.receive(Response.note("first")) { $0.names.append("first") }
    store.receive(Response.note("second")) { $0.names.append("second") }
    store.finish()
  }

  @Test("<> keeps separate token tables for each side")
  func compositionSeparateTokens() {
    let left = PassthroughSubject<Response, Never>()
    let right = PassthroughSubject<Response, Never>()
    let first = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, context in
      switch action {
      case .load: return left.asEffect(cancellationToken: "shared")
      case .cancel: return context.toCancel("shared")
      case .ignore: return .doNothing
      }
    }
    let second = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      guard case .load = action else { return .doNothing }
      return right.asEffect(cancellationToken: "shared")
    }
    let composed = first <> second
    let store = makeStore([composed.asMiddleware()])
    store.dispatch(Request.load(1))
    // Both sides filed an effect under "shared": neither replaced the other.
    #expect(composed.runningEffectCount == 2)
    store.dispatch(Request.cancel(1))  // cancels only the left side's effect
    #expect(composed.runningEffectCount == 1)
    left.send(.loaded(1))
    right.send(.loaded(10))
    #expect(store.state.count == 10)
  }

  @Test("<> of injected middlewares keeps each side's dependencies")
  func compositionWithDependencies() {
    let base = EffectMiddleware<Request, Response, Log, String>.onAction { _, _, context in
      .just(.note(context.dependencies))
    }
    let composed = base.inject("left") <> base.inject("right")
    let store = makeStore([composed.asMiddleware()])
    store.dispatch(Request.ignore)
    #expect(store.state.names == ["Request", "left", "right"])
  }

  @Test("each store using one middleware has its own tokens")
  func separateTablesPerStore() {
    let stream = PassthroughSubject<Response, Never>()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      guard case .load = action else { return .doNothing }
      return stream.asEffect(cancellationToken: "t")
    }
    let first = makeStore([middleware.asMiddleware()])
    let second = makeStore([middleware.asMiddleware()])
    first.dispatch(Request.load(1))
    second.dispatch(Request.load(1))
    #expect(middleware.runningEffectCount == 2)
    stream.send(.loaded(1))
    #expect(first.state.count == 1)
    #expect(second.state.count == 1)
  }

  @Test("outputs of any action type, with OutputAction == any StoreAction")
  func anyOutput() {
    let middleware = EffectMiddleware<Request, any StoreAction, Log, Void>.onAction { _, _, _ in
      .sequence(Increment(), Named("named"))
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.ignore)
    #expect(store.state.names == ["Request", "Increment", "named"])
  }

  @Test("Effect.none, .merge and TCA-style effects work in an effect middleware too")
  func tcaEffects() {
    let id = UUID()
    let middleware = EffectMiddleware<Request, Response, Log, Void>.onAction { action, _, _ in
      switch action {
      case .load(let value):
        return .merge(Effect(value: .loaded(value)), .none).cancellable(id: id)
      case .cancel:
        return .cancel(id: id)
      case .ignore:
        return .none
      }
    }
    let store = makeStore([middleware.asMiddleware()])
    store.dispatch(Request.load(2))
    store.dispatch(Request.cancel(0))
    #expect(store.state.count == 2)
  }
}
