extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to the number
  /// of times you specify.
  ///
  /// ```swift
  /// struct Flaky: Error {}
  /// var attempts = 0
  /// let cancellable = Deferred { () -> AnyPublisher<String, Flaky> in
  ///   attempts += 1
  ///   return attempts < 3
  ///     ? Fail(error: Flaky()).eraseToAnyPublisher()
  ///     : Just("ok after \(attempts) attempts").setFailureType(to: Flaky.self).eraseToAnyPublisher()
  /// }
  /// .retry(2)
  /// .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: ok after 3 attempts, finished
  /// ```
  ///
  /// When the upstream fails, it is subscribed again (at most `retries` times) and asked for
  /// what the downstream requested and was not delivered; values delivered before the failure
  /// are not repeated by the operator itself. When the retries are used up, the last failure
  /// is passed on. A publisher that fails synchronously is resubscribed in a loop, not by
  /// recursion, so many retries do not grow the stack.
  ///
  /// As in Combine, the subscriber receives its subscription when the upstream's first
  /// subscription arrives, and the demand it returns for a value is requested from the upstream
  /// (the upstream's `receive` gets `.none`). An upstream that sends a value nobody asked for
  /// stops the program.
  ///
  /// - Parameter retries: The number of times to resubscribe after a failure (`0` never
  ///   resubscribes; a negative number, as `nil` in ``Publishers/Retry/init(upstream:retries:)``,
  ///   retries without limit, as in Combine).
  /// - Returns: A publisher that resubscribes to the upstream after a failure.
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}

extension Publishers {
  /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
  ///
  /// See ``Publisher/retry(_:)``. Cancellation cancels the current subscription and releases
  /// the downstream; deliveries never overlap, since only one subscription is live at a time.
  public struct Retry<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The maximum number of retry attempts to perform; `nil` retries without limit.
    public let retries: Int?

    /// Creates a publisher that resubscribes to `upstream` at most `retries` times (without
    /// limit if `nil`) after it fails.
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    /// Attaches the subscriber: the upstream is subscribed, and the subscriber receives its
    /// subscription when the upstream's arrives, as in Combine.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      RetrySubscription(upstream: upstream, retries: retries, downstream: subscriber)
        .attempt(stage: 0)
    }
  }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

/// The subscription of ``Publishers/Retry``: each attempt is a stage relaying a new
/// subscription to the upstream, with the demand carried over.
///
/// Attempts run in a loop ("trampoline"): a failure that arrives while an attempt is still
/// being subscribed (a synchronous failure, or one from another thread) only records the next
/// attempt, which the subscribing thread starts when the current `receive(subscriber:)`
/// returns.
@usableFromInline
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>:
  RelayStorage<Downstream>, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
  // @unchecked Sendable: `upstream` is immutable; `remaining`, `isSubscribing` and
  // `pendingStage` are guarded by `lock`; the base class guards the rest.
  @usableFromInline
  let upstream: Upstream
  /// Retries left; `nil` means without limit.
  @usableFromInline
  var remaining: Int?
  /// Whether some thread is inside `upstream.receive(subscriber:)` for an attempt.
  @usableFromInline
  var isSubscribing = false
  /// An attempt requested while another was being subscribed.
  @usableFromInline
  var pendingStage: Int?

  @inlinable
  init(upstream: Upstream, retries: Int?, downstream: Downstream) {
    self.upstream = upstream
    // A negative count retries without limit, as in Combine.
    remaining = retries.flatMap { $0 < 0 ? nil : $0 }
    super.init(downstream: downstream)
  }

  @usableFromInline
  override var description: String { "Retry" }

  @usableFromInline
  override func unwantedValue(stage: Int) {
    apiViolation(
      "Retry's upstream sent a value that was not requested. A publisher sends at most what "
        + "its subscriber asked for.")
  }

  // As in Combine: a completion before the subscription counts (a failure is retried).
  @usableFromInline
  override var acceptsCompletionBeforeSubscription: Bool { true }

  @usableFromInline
  override var requestsReturnedDemand: Bool { true }

  /// Subscribes attempt `stage`, or hands it to the thread already subscribing one.
  @inlinable
  func attempt(stage: Int) {
    let subscribesNow = lock.withLock { () -> Bool in
      if isSubscribing {
        pendingStage = stage
        return false
      }
      isSubscribing = true
      return true
    }
    guard subscribesNow else { return }
    var stage = stage
    while true {
      subscribe(upstream, stage: stage, role: RelayFirstStage.self) { [self, stage] completion in
        attemptEnded(stage: stage, with: completion)
      }
      let next = lock.withLock { () -> Int? in
        defer { pendingStage = nil }
        if pendingStage == nil { isSubscribing = false }
        return pendingStage
      }
      guard let next else { return }
      stage = next
    }
  }

  @inlinable
  func attemptEnded(stage: Int, with completion: Subscribers.Completion<Upstream.Failure>) {
    guard case .failure = completion else {
      finish(completion)
      return
    }
    let retries = lock.withLock { () -> Bool in
      guard let left = remaining else { return true }
      guard left > 0 else { return false }
      remaining = left - 1
      return true
    }
    if retries {
      attempt(stage: stage + 1)
    } else {
      finish(completion)
    }
  }
}
