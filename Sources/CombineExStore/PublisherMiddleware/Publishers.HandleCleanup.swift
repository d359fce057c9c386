import CombineEx
import Synchronization

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
  /// Each subscription has its own once-only guard, so subscribing twice cleans up twice, once
  /// per pipeline, and a cancel racing a completion on another thread still cleans up once.
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

    /// Subscribes `subscriber` through a fresh once-only guard.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let once = CleanupOnce(cleanup)
      upstream
        .handleEvents(
          receiveCompletion: { _ in once.run() },
          receiveCancel: { once.run() }
        )
        .receive(subscriber: subscriber)
    }
  }
}

/// Runs a closure at most once, whichever thread asks first.
@usableFromInline
final class CleanupOnce: @unchecked Sendable {
  // @unchecked Sendable: `done` is atomic and only the thread that flips it reads `cleanup`.
  private let done = Atomic<Bool>(false)
  private let cleanup: () -> Void

  @usableFromInline
  init(_ cleanup: @escaping () -> Void) {
    self.cleanup = cleanup
  }

  @usableFromInline
  func run() {
    if done.exchange(true, ordering: .acquiringAndReleasing) { return }
    cleanup()
  }
}
