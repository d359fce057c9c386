extension Publisher {
  /// Handles a failure of the upstream publisher by replacing it with another publisher.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = Fail<Int, Offline>(error: Offline())
  ///   .prepend(1, 2)
  ///   .catch { _ in Just(0) }
  ///   .sink { print($0) }
  /// // Prints: 1, 2, 0
  /// ```
  ///
  /// If the upstream finishes, the result finishes. If it fails, `handler` is called with the
  /// failure and the publisher it returns is subscribed in the upstream's place, and asked for
  /// what the downstream requested and the upstream did not deliver; the result then completes
  /// when that publisher completes (a failure of that publisher is not caught again).
  ///
  /// - Parameter handler: A closure that takes the upstream's failure and returns a publisher
  ///   to continue with.
  /// - Returns: A publisher that replaces the upstream with `handler`'s publisher on failure.
  public func `catch`<P: Publisher>(
    _ handler: @escaping (Failure) -> P
  ) -> Publishers.Catch<Self, P> where Output == P.Output {
    Publishers.Catch(upstream: self, handler: handler)
  }
}

extension Publishers {
  /// A publisher that handles a failure of its upstream by replacing it with another
  /// publisher.
  ///
  /// See ``Publisher/catch(_:)``. Cancellation cancels whichever publisher is subscribed and
  /// releases the downstream; deliveries never overlap, since only one publisher is subscribed
  /// at a time.
  public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    /// The kind of values this publisher publishes: the upstream's (and the new publisher's).
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the new publisher's.
    public typealias Failure = NewPublisher.Failure

    /// The publisher this publisher receives elements from.
    public let upstream: Upstream

    /// A closure that returns a new publisher to replace the upstream after it fails.
    public let handler: (Upstream.Failure) -> NewPublisher

    /// Creates a publisher that replaces `upstream` with `handler`'s publisher if it fails.
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    /// Attaches the subscriber: the upstream is subscribed, and the subscriber receives its
    /// subscription when the upstream's arrives, as in Combine.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      CatchSubscription(handler: handler, downstream: subscriber).start(upstream)
    }
  }
}

/// The subscription of ``Publishers/Catch``: stage 0 relays the upstream; if it fails, stage 1
/// relays the handler's publisher with the demand carried over.
@usableFromInline
final class CatchSubscription<
  UpstreamFailure: Error, NewPublisher: Publisher, Downstream: Subscriber
>:
  RelayStorage<Downstream>, @unchecked Sendable
where NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
  // @unchecked Sendable: `handler` is immutable; the base class guards the rest.
  @usableFromInline
  let handler: (UpstreamFailure) -> NewPublisher

  @inlinable
  init(handler: @escaping (UpstreamFailure) -> NewPublisher, downstream: Downstream) {
    self.handler = handler
    super.init(downstream: downstream)
  }

  @usableFromInline
  override var description: String { "Catch" }

  override var mirrorsDemand: Bool { true }

  @usableFromInline
  override func unwantedValue(stage: Int) {
    catchUnwantedValue(operator: description, stage: stage)
  }

  @usableFromInline
  override func unexpectedCompletion(
    _ kind: RelayStateMachine.StageCompletion, stage: Int, isFailure: Bool
  ) {
    catchUnexpectedCompletion(operator: description, kind, stage: stage, isFailure: isFailure)
  }

  @inlinable
  func start<Upstream: Publisher>(_ upstream: Upstream)
  where Upstream.Output == Downstream.Input, Upstream.Failure == UpstreamFailure {
    subscribe(upstream, stage: 0, role: RelayFirstStage.self) { [self] completion in
      switch completion {
      case .finished:
        finish(.finished)
      case .failure(let failure):
        subscribe(handler(failure), stage: 1, role: RelayNextStage.self) { [self] completion in
          finish(completion)
        }
      }
    }
  }
}

/// What `catch` and `tryCatch` do with an upstream value nobody asked for: as in Combine, an
/// upstream that sends one breaks the contract and the program stops; the replacement
/// publisher's (stage 1) is ignored (rule 1).
func catchUnwantedValue(operator name: String, stage: Int) {
  guard stage == 0 else { return }
  apiViolation(
    "\(name)'s upstream sent a value that was not requested. A publisher sends at most what "
      + "its subscriber asked for.")
}

/// What `catch` and `tryCatch` do with an upstream failure that comes before the upstream's
/// subscription, or after the upstream already failed: as in Combine, the program stops (a
/// publisher completes once, after the subscription). A `.finished` there is ignored, as in
/// Combine, and so is anything the replacement publisher sends late.
func catchUnexpectedCompletion(
  operator name: String, _ kind: RelayStateMachine.StageCompletion, stage: Int, isFailure: Bool
) {
  guard stage == 0, isFailure else { return }
  switch kind {
  case .beforeSubscription:
    apiViolation(
      "\(name)'s upstream failed before sending its subscription. A publisher sends the "
        + "subscription first.")
  case .stale:
    apiViolation(
      "\(name)'s upstream failed after it had already failed. A publisher completes once.")
  case .live, .ended:
    break
  }
}
