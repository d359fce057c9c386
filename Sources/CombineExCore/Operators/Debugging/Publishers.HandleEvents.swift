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
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let logic = HandleEventsLogic(
        receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
        receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
        receiveRequest: receiveRequest)
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `handleEvents`: runs each closure, then passes the event on. The driver keeps a status, so
/// that nothing (closures included) runs after the completion or the cancel.
@usableFromInline
struct HandleEventsLogic<Input, Failure: Error>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure
  @usableFromInline let receiveSubscription: ((any Subscription) -> Void)?
  @usableFromInline let receiveOutput: ((Input) -> Void)?
  @usableFromInline let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  @usableFromInline let receiveCancel: (() -> Void)?
  @usableFromInline let receiveRequest: ((Subscribers.Demand) -> Void)?

  @inlinable
  init(
    receiveSubscription: ((any Subscription) -> Void)?, receiveOutput: ((Input) -> Void)?,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?, receiveCancel: (() -> Void)?,
    receiveRequest: ((Subscribers.Demand) -> Void)?
  ) {
    self.receiveSubscription = receiveSubscription
    self.receiveOutput = receiveOutput
    self.receiveCompletion = receiveCompletion
    self.receiveCancel = receiveCancel
    self.receiveRequest = receiveRequest
  }

  @inlinable
  var name: String { "HandleEvents" }

  /// As in Combine: a cancel before the upstream's subscription is only noted (reported to
  /// `receiveCancel`; the subscription that arrives is handed on untouched), and a completion
  /// before it is reported and passed on.
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel.endingOnEarlyCompletion }

  @inlinable
  func subscribed(to upstream: any Subscription) {
    receiveSubscription?(upstream)
  }

  /// As in Combine, a second subscription is reported too (then cancelled), and so are a
  /// request and a cancel that come before the upstream's subscription; nothing after the end.
  @inlinable
  func rejected(_ subscription: any Subscription, whileConnected: Bool) {
    if whileConnected { receiveSubscription?(subscription) }
  }

  @inlinable
  func requestedBeforeSubscription(_ demand: Subscribers.Demand) {
    receiveRequest?(demand)
  }

  @inlinable
  func cancelledBeforeSubscription() {
    receiveCancel?()
  }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, Failure> {
    receiveOutput?(input)
    return .emit(input)
  }

  @inlinable
  func receive(
    completion: Subscribers.Completion<Failure>, _: inout Void
  ) -> OperatorEnding<Input, Failure> {
    receiveCompletion?(completion)
    return .completion(completion)
  }

  /// The demand returned for a value is a request too: reported, unless the downstream
  /// cancelled from inside its `receive`.
  @inlinable
  func returning(_ demand: Subscribers.Demand, isLive: () -> Bool) -> Subscribers.Demand {
    if demand > 0, let receiveRequest, isLive() { receiveRequest(demand) }
    return demand
  }

  @inlinable
  func request(_ demand: Subscribers.Demand, from upstream: (any Subscription)?) {
    guard let upstream else { return }
    receiveRequest?(demand)
    upstream.request(demand)
  }

  @inlinable
  func cancel(_ upstream: (any Subscription)?) {
    guard let upstream else { return }
    receiveCancel?()
    upstream.cancel()
  }
}
