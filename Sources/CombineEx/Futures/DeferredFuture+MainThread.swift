import CombineExCore
import Dispatch
import Foundation

// Where a future delivers its result; each returns a cold `DeferredFuture` (the publisher forms
// of the same names return `Publishers.ReceiveOn`).

extension DeferredFutureProtocol {
  /// Delivers the result on the main queue: at once if it arrives there, otherwise through
  /// `DispatchQueue.main` (``UIScheduler``).
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<String, Never>.just("ready")
  ///   .receiveOnMain()
  ///   .sink { text in
  ///     // runs on the main queue
  ///   }
  /// ```
  public func receiveOnMain() -> DeferredFuture<Output, Failure> {
    receive(on: UIScheduler.shared)
  }

  /// Delivers the result on `DispatchQueue.main`, always asynchronously.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<String, Never>.just("ready")
  ///   .receiveOnMainAsync()
  ///   .sink { text in
  ///     // runs on the main queue, after the current main-queue work
  ///   }
  /// ```
  public func receiveOnMainAsync() -> DeferredFuture<Output, Failure> {
    receive(on: DispatchQueue.main)
  }

  /// Delivers the result on `RunLoop.main`, in its default mode (the main run loop must be
  /// running).
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<String, Never>.just("thumbnail")
  ///   .receiveOnMainRunLoop()
  ///   .sink { image in
  ///     // runs when the main run loop next runs in its default mode
  ///   }
  /// ```
  public func receiveOnMainRunLoop() -> DeferredFuture<Output, Failure> {
    receive(on: RunLoop.main)
  }

  /// Delivers the result on a global queue of quality of service `qos`.
  ///
  /// ```swift
  /// let cancellable = DeferredFuture<[Int], Never>.just([3, 1, 2])
  ///   .receiveInBackground(qos: .utility)
  ///   .map { $0.sorted() }
  ///   .sink { print($0) }  // Prints: [1, 2, 3] — from a global queue
  /// ```
  public func receiveInBackground(
    qos: DispatchQoS.QoSClass = .default
  ) -> DeferredFuture<Output, Failure> {
    receive(on: DispatchQueue.global(qos: qos))
  }
}
