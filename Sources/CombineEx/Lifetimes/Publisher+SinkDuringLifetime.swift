import CombineExCore
import Synchronization

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
    let sink = LifetimeBoundSink<Output, Failure>(
      owner: object,
      handlers: .init(
        receiveSubscription: receiveSubscription, receiveValue: receiveValue,
        receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
        receiveRequest: receiveRequest))
    LifetimeBindings.shared.bind(sink, to: object)
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

  private enum Status {
    case awaitingSubscription
    case subscribed(any Subscription)
    case terminated
  }

  private weak var owner: AnyObject?
  private let lock = Lock()
  private var status = Status.awaitingSubscription
  private var handlers: Handlers?

  init(owner: AnyObject, handlers: Handlers) {
    self.owner = owner
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
    LifetimeBindings.shared.unbind(self)
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
    if result != nil { LifetimeBindings.shared.unbind(self) }
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
final class LifetimeBindings: Sendable {
  static let shared = LifetimeBindings()

  private struct State {
    var bindings: [ObjectIdentifier: any LifetimeBinding] = [:]
    var sweepThreshold = 64
  }

  private let state = Mutex(State())

  /// The number of live bindings (for tests and diagnostics).
  var count: Int { state.withLock { $0.bindings.count } }

  func bind(_ binding: any LifetimeBinding, to owner: AnyObject) {
    let orphans = state.withLock { state -> [any LifetimeBinding] in
      state.bindings[ObjectIdentifier(binding)] = binding
      guard state.bindings.count >= state.sweepThreshold else { return [] }
      let orphans = state.bindings.values.filter { !$0.isOwnerAlive }
      state.sweepThreshold = max(64, 2 * (state.bindings.count - orphans.count))
      return orphans
    }
    for orphan in orphans { orphan.endBecauseOwnerIsGone() }
  }

  func unbind(_ binding: any LifetimeBinding) {
    _ = state.withLock { $0.bindings.removeValue(forKey: ObjectIdentifier(binding)) }
  }
}
