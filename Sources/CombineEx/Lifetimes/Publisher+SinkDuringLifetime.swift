import CombineExCore

extension Publisher {
  /// Attaches a subscriber whose subscription lives as long as `object`, without you keeping
  /// an `AnyCancellable`.
  ///
  /// The subscription is kept alive on behalf of `object`, which is never retained. It ends
  /// when the publisher completes, when you cancel the returned `AnyCancellable`, or once
  /// `object` is gone: then nothing more is delivered, and the subscription is cancelled (and
  /// `receiveCancel` called) no later than the publisher's next event. Every ended
  /// subscription is forgotten, so finished sinks leave nothing behind.
  ///
  /// ```swift
  /// final class Service {
  ///   var latest = 0
  ///   func start(_ values: PassthroughSubject<Int, Never>) {
  ///     values.sink(duringLifetimeOf: self, receiveValue: { [unowned self] in latest = $0 })
  ///   }
  /// }
  /// let values = PassthroughSubject<Int, Never>()
  /// let service = Service()
  /// service.start(values)
  /// values.send(3)
  /// print(service.latest)  // Prints: 3
  /// ```
  ///
  /// The returned `AnyCancellable` is only a way to cancel early: unlike other cancellables,
  /// discarding it does not cancel the subscription. Every handler is optional; the sink
  /// requests unlimited values. Capture `object` weakly or
  /// unowned in the handlers: a strong capture would keep it alive for as long as the
  /// publisher runs.
  @discardableResult
  public func sink(
    duringLifetimeOf object: AnyObject,
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveValue: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> AnyCancellable {
    sink(
      duringLifetimeOf: object, in: .shared, receiveSubscription: receiveSubscription,
      receiveValue: receiveValue, receiveCompletion: receiveCompletion,
      receiveCancel: receiveCancel, receiveRequest: receiveRequest)
  }

  /// The same as the public ``sink(duringLifetimeOf:receiveSubscription:receiveValue:receiveCompletion:receiveCancel:receiveRequest:)``,
  /// with the subscription kept in `bindings` instead of the shared registry: tests give each
  /// case a registry of its own, so that its ``LifetimeBindings/count`` is exact.
  @discardableResult
  package func sink(
    duringLifetimeOf object: AnyObject,
    in bindings: LifetimeBindings,
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveValue: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> AnyCancellable {
    let sink = LifetimeBoundSink<Output, Failure>(
      owner: object, bindings: bindings,
      handlers: .init(
        receiveSubscription: receiveSubscription, receiveValue: receiveValue,
        receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
        receiveRequest: receiveRequest))
    bindings.bind(sink, to: object)
    subscribe(sink)
    return AnyCancellable(cancellingOnlyExplicitly: sink)
  }
}

/// The subscriber behind ``Publisher/sink(duringLifetimeOf:receiveSubscription:receiveValue:receiveCompletion:receiveCancel:receiveRequest:)``.
final class LifetimeBoundSink<Input, Failure: Error>: Subscriber, Cancellable,
  LifetimeBinding, @unchecked Sendable
{
  // @unchecked Sendable: `status` and `handlers` are guarded by `lock`; `owner` is a weak
  // reference (atomic in the runtime).

  struct Handlers {
    var receiveSubscription: ((any Subscription) -> Void)?
    var receiveValue: ((Input) -> Void)?
    var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    var receiveCancel: (() -> Void)?
    var receiveRequest: ((Subscribers.Demand) -> Void)?
  }

  private weak var owner: AnyObject?
  /// The registry that keeps this sink alive until it ends.
  private let bindings: LifetimeBindings
  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var handlers: Handlers?

  init(owner: AnyObject, bindings: LifetimeBindings, handlers: Handlers) {
    self.owner = owner
    self.bindings = bindings
    self.handlers = handlers
  }

  var isOwnerAlive: Bool { owner != nil }

  func receive(subscription: any Subscription) {
    guard isOwnerAlive else {
      subscription.cancel()
      endBecauseOwnerIsGone()
      return
    }
    let handlers = lock.withLock { () -> Handlers? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return self.handlers
    }
    guard let handlers else { return subscription.cancel() }
    handlers.receiveSubscription?(subscription)
    handlers.receiveRequest?(.unlimited)
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard isOwnerAlive else {
      endBecauseOwnerIsGone()
      return .none
    }
    let handler = lock.withLock { () -> ((Input) -> Void)? in
      guard case .subscribed = status else { return nil }
      return handlers?.receiveValue
    }
    handler?(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard isOwnerAlive else {
      endBecauseOwnerIsGone()
      return
    }
    let handlers = finish()
    handlers?.receiveCompletion?(completion)
  }

  func cancel() {
    guard let (subscription, handlers) = finishCancelling() else { return }
    subscription?.cancel()
    handlers?.receiveCancel?()
  }

  /// Called from the registry's sweep, or on the next event, once the owner is gone.
  func endBecauseOwnerIsGone() {
    cancel()
  }

  /// Ends without a cancel (the publisher completed); returns the handlers to call.
  private func finish() -> Handlers? {
    let handlers = lock.withLock { () -> Handlers? in
      guard case .subscribed = status else { return nil }
      status = .terminated
      defer { self.handlers = nil }
      return self.handlers
    }
    bindings.unbind(self)
    return handlers
  }

  /// Ends by cancelling; returns the subscription to cancel and the handlers, or `nil` if the
  /// sink had already ended.
  private func finishCancelling() -> ((any Subscription)?, Handlers?)? {
    let result = lock.withLock { () -> ((any Subscription)?, Handlers?)? in
      switch status {
      case .terminated:
        return nil
      case .awaitingSubscription:
        status = .terminated
        defer { handlers = nil }
        return (nil, handlers)
      case .subscribed(let subscription):
        status = .terminated
        defer { handlers = nil }
        return (subscription, handlers)
      }
    }
    if result != nil { bindings.unbind(self) }
    return result
  }
}

/// What the registry keeps alive for an owner.
protocol LifetimeBinding: AnyObject, Sendable {
  /// Whether the owner still exists.
  var isOwnerAlive: Bool { get }
  /// Ends the binding after its owner went away.
  func endBecauseOwnerIsGone()
}

/// Keeps lifetime-bound sinks alive on behalf of their owners (there are no associated objects
/// on Linux). Entries are removed when their sink ends; sinks whose owner is gone are swept out
/// whenever the registry has doubled in size since the last sweep, so the registry stays
/// proportional to the live subscriptions.
package final class LifetimeBindings: @unchecked Sendable {
  // @unchecked Sendable: `state` is only touched under `lock` (the core's `Lock`, whose
  // contended path the thread sanitizer sees, unlike the standard library's `Mutex`).

  /// The registry behind the public `sink(duringLifetimeOf:...)`.
  package static let shared = LifetimeBindings()

  private struct State {
    var bindings: [ObjectIdentifier: any LifetimeBinding] = [:]
    var sweepThreshold = 64
  }

  private let lock = Lock()
  private var state = State()

  /// Creates an empty registry (the library uses ``shared``; tests make their own).
  package init() {}

  /// The number of sinks the registry keeps alive: those that have not ended yet, including
  /// any whose owner is gone but that no event or sweep has ended yet (for tests and
  /// diagnostics).
  package var count: Int { lock.withLock { state.bindings.count } }

  func bind(_ binding: any LifetimeBinding, to owner: AnyObject) {
    let orphans = lock.withLock { () -> [any LifetimeBinding] in
      state.bindings[ObjectIdentifier(binding)] = binding
      guard state.bindings.count >= state.sweepThreshold else { return [] }
      let orphans = state.bindings.values.filter { !$0.isOwnerAlive }
      state.sweepThreshold = max(64, 2 * (state.bindings.count - orphans.count))
      return orphans
    }
    for orphan in orphans { orphan.endBecauseOwnerIsGone() }
  }

  func unbind(_ binding: any LifetimeBinding) {
    let removed = lock.withLock { state.bindings.removeValue(forKey: ObjectIdentifier(binding)) }
    // Released outside the lock: the binding's deinitialization may run user code.
    _ = removed
  }
}
