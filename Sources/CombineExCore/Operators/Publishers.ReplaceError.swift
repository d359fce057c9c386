extension Publisher {
  /// Replaces any errors in the stream with the provided element.
  ///
  /// If the upstream fails, this publisher publishes `output` and then finishes normally.
  ///
  /// ```swift
  /// struct Broken: Error {}
  /// let subject = PassthroughSubject<Int, Broken>()
  /// let cancellable = subject
  ///   .replaceError(with: -1)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// subject.send(1)
  /// subject.send(completion: .failure(Broken()))
  /// // Prints: 1, -1, finished
  /// ```
  ///
  /// Like Combine, the operator keeps count of the subscriber's outstanding demand: if the
  /// upstream fails while none is left, the replacement waits for the next request. The
  /// result can never fail (`Failure == Never`).
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces any errors in the stream with a provided element.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: none, since errors are replaced.
    public typealias Failure = Never

    /// The element with which to replace errors from the upstream publisher.
    public let output: Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that replaces a failure of `upstream` with `output`.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, S.Failure == Failure {
      upstream.receive(
        subscriber: ReplaceErrorOperator<S, Upstream.Failure>(
          output: output, downstream: subscriber))
    }
  }
}

extension Publishers.ReplaceError: Equatable
where Upstream: Equatable, Upstream.Output: Equatable {}

/// The subscription of `Publishers.ReplaceError`: passes values and demand through while
/// counting the downstream's outstanding demand, and turns the upstream's failure into the
/// replacement value (delivered at once if demand is outstanding, otherwise on the next
/// request) followed by `.finished`.
// @unchecked Sendable: every stored property but `output` (immutable) is guarded by `lock`.
final class ReplaceErrorOperator<Downstream: Subscriber, UpstreamFailure: Error>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Failure == Never {
  typealias Input = Downstream.Input
  typealias Failure = UpstreamFailure

  /// Where the operator is in its life.
  private enum State {
    /// Created, waiting for the upstream's subscription.
    case awaitingSubscription
    /// Connected to the upstream.
    case subscribed(any Subscription)
    /// The upstream failed with no demand outstanding: the replacement waits for a request.
    case awaitingDemandForReplacement
    /// Completed or cancelled: nothing more happens.
    case terminated
  }

  /// What to do, once the lock is released, after an event.
  private enum Action {
    /// Nothing.
    case none
    /// Finish the downstream.
    case forward(Downstream)
    /// Pass the request on to the upstream.
    case request(any Subscription)
    /// Deliver the replacement and `.finished` to the downstream.
    case replace(Downstream)
  }

  private let lock = Lock()
  private var state = State.awaitingSubscription
  private var downstream: Downstream?
  /// Whether the downstream cancelled (checked after the replacement is delivered).
  private var cancelled = false
  /// Demand the downstream has requested and not yet received.
  private var outstanding = Subscribers.Demand.none
  private let output: Downstream.Input

  init(output: Downstream.Input, downstream: Downstream) {
    self.output = output
    self.downstream = downstream
  }

  var description: String { "ReplaceError" }

  // MARK: Subscriber (upstream side)

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = state else { return nil }
      state = .subscribed(subscription)
      return self.downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .subscribed = state else { return nil }
      outstanding -= 1
      return self.downstream
    }
    guard let downstream else { return .none }
    let more = downstream.receive(input)
    if more > 0 {
      lock.withLock { outstanding += more }
    }
    return more
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    let action = lock.withLock { () -> Action in
      guard case .subscribed = state, let downstream else { return .none }
      guard case .failure = completion else {
        state = .terminated
        self.downstream = nil
        return .forward(downstream)
      }
      guard outstanding > 0 else {
        state = .awaitingDemandForReplacement
        return .none
      }
      state = .terminated
      self.downstream = nil
      return .replace(downstream)
    }
    perform(action)
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    let action = lock.withLock { () -> Action in
      switch state {
      case .subscribed(let upstream):
        outstanding += demand
        return .request(upstream)
      case .awaitingDemandForReplacement:
        guard let downstream else { return .none }
        state = .terminated
        self.downstream = nil
        return .replace(downstream)
      case .awaitingSubscription, .terminated:
        return .none
      }
    }
    perform(action, demand: demand)
  }

  /// Performs what an event decided, with the lock released.
  private func perform(_ action: Action, demand: Subscribers.Demand = .none) {
    switch action {
    case .none:
      break
    case .forward(let downstream):
      downstream.receive(completion: .finished)
    case .request(let upstream):
      upstream.request(demand)
    case .replace(let downstream):
      _ = downstream.receive(output)
      // A cancel from inside `receive(_:)` keeps the completion from being sent.
      if lock.withLock({ cancelled }) { return }
      downstream.receive(completion: .finished)
    }
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        state = .terminated
        downstream = nil
        cancelled = true
      }
      guard case .subscribed(let upstream) = state else { return nil }
      return upstream
    }
    upstream?.cancel()
  }
}
