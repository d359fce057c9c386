extension Publisher {
  /// Performs the specified closures when publisher events occur.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher
  ///   .handleEvents(
  ///     receiveSubscription: { _ in print("subscribed") },
  ///     receiveOutput: { print("value \($0)") },
  ///     receiveCompletion: { print("completion \($0)") },
  ///     receiveCancel: { print("cancelled") },
  ///     receiveRequest: { print("demand \($0)") })
  ///   .sink { _ in }
  /// // Prints: subscribed, demand unlimited, value 1, value 2, completion finished
  /// ```
  ///
  /// Every closure is optional and runs before the event moves on (the subscription before the
  /// subscriber sees it, a value before the subscriber receives it, and so on), with no lock
  /// held, so it may call back into the pipeline. `receiveRequest` sees every request for
  /// more: the subscriber's `request(_:)` calls and the non-zero demand it returns from
  /// `receive(_:)`. `receiveCancel` runs once, when the subscriber cancels; nothing runs after
  /// a completion or a cancel.
  ///
  /// - Parameters:
  ///   - receiveSubscription: Called when the upstream's subscription arrives.
  ///   - receiveOutput: Called with each value from the upstream.
  ///   - receiveCompletion: Called with the upstream's completion.
  ///   - receiveCancel: Called when the downstream cancels.
  ///   - receiveRequest: Called with each demand the downstream asks for.
  public func handleEvents(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    Publishers.HandleEvents(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
      receiveRequest: receiveRequest)
  }
}

extension Publishers {
  /// A publisher that performs the specified closures when publisher events occur.
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that executes when the publisher receives the subscription from the upstream
    /// publisher.
    public var receiveSubscription: ((any Subscription) -> Void)?

    /// A closure that executes when the publisher receives a value from the upstream
    /// publisher.
    public var receiveOutput: ((Upstream.Output) -> Void)?

    /// A closure that executes when the upstream publisher finishes normally or terminates
    /// with an error.
    public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

    /// A closure that executes when the downstream receiver cancels publishing.
    public var receiveCancel: (() -> Void)?

    /// A closure that executes when the publisher receives a request for more elements.
    public var receiveRequest: ((Subscribers.Demand) -> Void)?

    /// Creates a publisher that runs the given closures when events occur.
    public init(
      upstream: Upstream,
      receiveSubscription: ((any Subscription) -> Void)? = nil,
      receiveOutput: ((Output) -> Void)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
      receiveCancel: (() -> Void)? = nil,
      receiveRequest: ((Subscribers.Demand) -> Void)?
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
      self.receiveCancel = receiveCancel
      self.receiveRequest = receiveRequest
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.receive(subscriber: HandleEventsOperator(events: self, downstream: subscriber))
    }
  }
}

/// The subscription of `Publishers.HandleEvents`: forwards every event after running its
/// closure, and keeps a status so that nothing (closures included) runs after the completion
/// or the cancel.
// @unchecked Sendable: `status` and `downstream` are guarded by `lock`; the closures are
// immutable.
final class HandleEventsOperator<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var downstream: Downstream?
  private let receiveSubscription: ((any Subscription) -> Void)?
  private let receiveOutput: ((Upstream.Output) -> Void)?
  private let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
  private let receiveCancel: (() -> Void)?
  private let receiveRequest: ((Subscribers.Demand) -> Void)?

  init(events: Publishers.HandleEvents<Upstream>, downstream: Downstream) {
    self.receiveSubscription = events.receiveSubscription
    self.receiveOutput = events.receiveOutput
    self.receiveCompletion = events.receiveCompletion
    self.receiveCancel = events.receiveCancel
    self.receiveRequest = events.receiveRequest
    self.downstream = downstream
  }

  var description: String { "HandleEvents" }

  // MARK: Subscriber (upstream side)

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return self.downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    receiveSubscription?(subscription)
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ status.isSubscribed ? self.downstream : nil }) else {
      return .none
    }
    receiveOutput?(input)
    let demand = downstream.receive(input)
    if demand > 0, let receiveRequest, lock.withLock({ status.isSubscribed }) {
      receiveRequest(demand)
    }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminated
      defer { self.downstream = nil }
      return self.downstream
    }
    guard let downstream else { return }
    receiveCompletion?(completion)
    downstream.receive(completion: completion)
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    guard let upstream else { return }
    receiveRequest?(demand)
    upstream.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      status = .terminated
      downstream = nil
      return upstream
    }
    guard let upstream else { return }
    receiveCancel?()
    upstream.cancel()
  }
}
