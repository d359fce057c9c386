extension Publisher {
  /// Replaces an empty stream with the provided element.
  ///
  /// If the upstream finishes without publishing any element, this publisher publishes
  /// `output` and then finishes.
  ///
  /// ```swift
  /// let cancellable = Empty<Double, Never>()
  ///   .replaceEmpty(with: Double.nan)
  ///   .sink { print($0) }
  /// // Prints: nan
  /// ```
  ///
  /// Demand passes straight through; the replacement, like any value, is only delivered once
  /// the subscriber has asked for something (so a subscriber that has requested nothing yet
  /// receives it, and `.finished`, with its first request). A failure is passed on unchanged,
  /// without the replacement.
  ///
  /// Combine requests unlimited elements from the upstream whatever the subscriber's demand;
  /// this implementation keeps to the subscriber's demand instead, so that it never delivers
  /// more values than were requested.
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces an empty stream with a provided element.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The element to deliver when the upstream publisher finishes without delivering any
    /// elements.
    public let output: Upstream.Output

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that publishes `output` if `upstream` finishes empty.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches the subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      upstream.receive(subscriber: ReplaceEmptyOperator(output: output, downstream: subscriber))
    }
  }
}

extension Publishers.ReplaceEmpty: Equatable
where Upstream: Equatable, Upstream.Output: Equatable {}

/// The subscription of `Publishers.ReplaceEmpty`: passes values and demand through, remembers
/// whether a value came, and when the upstream finishes empty delivers the replacement as soon
/// as the downstream has demand.
// @unchecked Sendable: every stored property but `output` (immutable) is guarded by `lock`.
final class ReplaceEmptyOperator<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// Where the operator is in its life.
  private enum State {
    /// Created, waiting for the upstream's subscription.
    case awaitingSubscription
    /// Connected to the upstream.
    case subscribed(any Subscription)
    /// The upstream finished empty; the replacement waits for the downstream's first demand.
    case awaitingDemandForReplacement
    /// Completed or cancelled: nothing more happens.
    case terminated
  }

  /// What to do, once the lock is released, after an event.
  private enum Action {
    /// Nothing.
    case none
    /// Pass the completion on to the downstream.
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
  /// Whether the downstream has requested anything. While no value has arrived, any request
  /// is still outstanding, so it covers the replacement.
  private var hasDemand = false
  /// Whether the upstream has published a value.
  private var receivedValue = false
  private let output: Downstream.Input

  init(output: Downstream.Input, downstream: Downstream) {
    self.output = output
    self.downstream = downstream
  }

  var description: String { "ReplaceEmpty" }

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
      receivedValue = true
      return self.downstream
    }
    return downstream?.receive(input) ?? .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let action = lock.withLock { () -> Action in
      guard case .subscribed = state, let downstream else { return .none }
      guard case .finished = completion, !receivedValue else {
        state = .terminated
        self.downstream = nil
        return .forward(downstream)
      }
      guard hasDemand else {
        state = .awaitingDemandForReplacement
        return .none
      }
      state = .terminated
      self.downstream = nil
      return .replace(downstream)
    }
    perform(action, completion: completion)
  }

  // MARK: Subscription (downstream side)

  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    let action = lock.withLock { () -> Action in
      hasDemand = true
      switch state {
      case .subscribed(let upstream):
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
  private func perform(
    _ action: Action, completion: Subscribers.Completion<Failure> = .finished,
    demand: Subscribers.Demand = .none
  ) {
    switch action {
    case .none:
      break
    case .forward(let downstream):
      downstream.receive(completion: completion)
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
