extension Publisher {
  /// Handles a failure of the upstream publisher by either replacing it with another publisher
  /// or throwing a new error.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// struct GaveUp: Error {}
  /// let cancellable = Fail<Int, Offline>(error: Offline())
  ///   .prepend(1)
  ///   .tryCatch { _ -> Just<Int> in throw GaveUp() }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 1, failure(GaveUp())
  /// ```
  ///
  /// Like ``Publisher/catch(_:)``, except that `handler` may throw: the result then fails with
  /// the thrown error (the upstream has already failed, so there is nothing left to cancel).
  ///
  /// - Parameter handler: A throwing closure that takes the upstream's failure and returns a
  ///   publisher to continue with.
  /// - Returns: A publisher that replaces the upstream with `handler`'s publisher on failure,
  ///   or fails with the error `handler` throws.
  public func tryCatch<P: Publisher>(
    _ handler: @escaping (Failure) throws -> P
  ) -> Publishers.TryCatch<Self, P> where Output == P.Output {
    Publishers.TryCatch(upstream: self, handler: handler)
  }
}

extension Publishers {
  /// A publisher that handles a failure of its upstream by replacing it with another
  /// publisher, or failing with the error its handler throws.
  ///
  /// See ``Publisher/tryCatch(_:)``.
  public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    /// The kind of values this publisher publishes: the upstream's (and the new publisher's).
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the new publisher's failure or the
    /// error the handler throws.
    public typealias Failure = any Error

    /// The publisher this publisher receives elements from.
    public let upstream: Upstream

    /// A throwing closure that returns a new publisher to replace the upstream after it fails.
    public let handler: (Upstream.Failure) throws -> NewPublisher

    /// Creates a publisher that replaces `upstream` with `handler`'s publisher if it fails.
    public init(
      upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher
    ) {
      self.upstream = upstream
      self.handler = handler
    }

    /// Attaches the subscriber: the upstream is subscribed, and the subscriber receives its
    /// subscription when the upstream's arrives, as in Combine.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      TryCatchSubscription(handler: handler, downstream: subscriber).start(upstream)
    }
  }
}

/// The subscription of ``Publishers/TryCatch``: stage 0 relays the upstream; if it fails,
/// stage 1 relays the handler's publisher with the demand carried over, unless the handler
/// throws.
@usableFromInline
final class TryCatchSubscription<
  UpstreamFailure: Error, NewPublisher: Publisher, Downstream: Subscriber
>: RelayStorage<Downstream>, @unchecked Sendable
where NewPublisher.Output == Downstream.Input, Downstream.Failure == any Error {
  // @unchecked Sendable: `handler` is immutable; the base class guards the rest.
  @usableFromInline
  let handler: (UpstreamFailure) throws -> NewPublisher

  @inlinable
  init(handler: @escaping (UpstreamFailure) throws -> NewPublisher, downstream: Downstream) {
    self.handler = handler
    super.init(downstream: downstream)
  }

  @usableFromInline
  override var description: String { "TryCatch" }

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
        let replacement: NewPublisher
        do {
          replacement = try handler(failure)
        } catch {
          finish(.failure(error))
          return
        }
        subscribe(replacement, stage: 1, role: RelayNextStage.self) { [self] completion in
          finish(completion.mapFailure { $0 })
        }
      }
    }
  }
}
