import CombineEx

extension Publisher {
  /// Calls `cleanup` exactly once per subscription, when the pipeline finishes, fails or is
  /// cancelled.
  ///
  /// Made for ``RetainedPublisherAction``: put it right before the subscriber whose cancellable
  /// you store, so that the publisher middleware learns when the pipeline has ended.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject
  ///   .handleCleanup { print("cleanup") }
  ///   .sink { print($0) }
  /// subject.send(1)  // Prints: 1
  /// subject.send(completion: .finished)  // Prints: cleanup
  /// cancellable.cancel()  // (already cleaned up: nothing printed)
  /// ```
  ///
  /// `cleanup` runs once the pipeline has ended: after the completion has gone downstream, or
  /// after a cancel has reached the upstream. Each subscription cleans up on its own, so
  /// subscribing twice cleans up twice, once per pipeline, and a cancel racing a completion on
  /// another thread still cleans up once.
  public func handleCleanup(_ cleanup: @escaping () -> Void) -> Publishers.HandleCleanup<Self> {
    Publishers.HandleCleanup(upstream: self, cleanup: cleanup)
  }
}

extension Publishers {
  /// A publisher that calls a cleanup closure once per subscription, when the subscription
  /// finishes, fails or is cancelled. See ``CombineExCore/Publisher/handleCleanup(_:)``.
  public struct HandleCleanup<Upstream: Publisher>: Publisher {
    /// The upstream's output.
    public typealias Output = Upstream.Output

    /// The upstream's failure.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Called once per subscription when it ends.
    public let cleanup: () -> Void

    /// Creates a publisher that calls `cleanup` once per subscription when it ends.
    public init(upstream: Upstream, cleanup: @escaping () -> Void) {
      self.upstream = upstream
      self.cleanup = cleanup
    }

    /// Subscribes `subscriber` through a fresh operator, which calls `cleanup` when it ends.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      // One object per subscription: the core's operator driver, whose status already decides
      // once, under its lock, that the subscription has ended (a cancel racing a completion
      // included), and tells the logic so (`ended()`).
      // `subscribeInlined`: the upstream's `subscribe` stays specialized however long the chain
      // before it is (see its documentation).
      upstream.subscribeInlined(
        OperatorDriver(
          HandleCleanupLogic<Output, Failure>(cleanup: cleanup), downstream: subscriber))
    }
  }
}

/// `handleCleanup`: passes everything through, and calls `cleanup` when the operator has ended
/// (after its completion went downstream, or after a cancel reached the upstream).
@usableFromInline
struct HandleCleanupLogic<Input, Failure: Error>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure

  @usableFromInline
  let cleanup: () -> Void

  @inlinable
  init(cleanup: @escaping () -> Void) {
    self.cleanup = cleanup
  }

  @inlinable
  var name: String { "HandleCleanup" }

  /// A cancel before the upstream's subscription ends the operator (and so cleans up at once;
  /// the subscription is cancelled when it arrives); a completion before it ends it too, as
  /// `handleEvents` does.
  @inlinable
  var misusePolicy: MisusePolicy { .standard.endingOnEarlyCompletion }

  @inlinable
  func receive(_ input: Input, _: inout Void) -> OperatorStep<Input, Failure> {
    .emit(input)
  }

  @inlinable
  func ended() {
    cleanup()
  }
}
