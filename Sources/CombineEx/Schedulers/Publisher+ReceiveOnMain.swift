import CombineExCore
import Dispatch
import Foundation

extension Publisher {
  /// Delivers values and the completion on the main queue: at once if the upstream sends them
  /// on the main queue, otherwise through `DispatchQueue.main` (``UIScheduler``).
  ///
  /// ```swift
  /// @MainActor func show(_ status: MutableProperty<String>) {
  ///   var label = ""
  ///   let cancellable = status.receiveOnMain().sink { label = $0 }
  ///   assert(label == status.value)  // the current value arrived inline
  ///   cancellable.cancel()
  /// }
  /// ```
  ///
  /// The same as `receive(on: UIScheduler.shared)`: values keep the upstream's order, even when
  /// some come from the main queue and others from other threads.
  public func receiveOnMain() -> Publishers.ReceiveOn<Self, UIScheduler> {
    receive(on: UIScheduler.shared)
  }

  /// Delivers values and the completion on `DispatchQueue.main`, always asynchronously (even
  /// when the upstream already is on the main queue).
  ///
  /// ```swift
  /// let cancellable = Just("loaded")
  ///   .receiveOnMainAsync()
  ///   .sink { text in
  ///     // runs on the main queue, after the current main-queue work
  ///   }
  /// ```
  ///
  /// The same as `receive(on: DispatchQueue.main)`.
  public func receiveOnMainAsync() -> Publishers.ReceiveOn<Self, DispatchQueue> {
    receive(on: DispatchQueue.main)
  }

  /// Delivers values and the completion on `RunLoop.main`, in its default mode: they wait
  /// until the main run loop is back in the default mode (for example until the user stops
  /// scrolling on iOS).
  ///
  /// ```swift
  /// let cancellable = Just("thumbnail")
  ///   .receiveOnMainRunLoop()
  ///   .sink { image in
  ///     // runs when the main run loop next runs in its default mode
  ///   }
  /// ```
  ///
  /// The same as `receive(on: RunLoop.main)`. The main run loop must be running (it is in an
  /// app; a command-line tool must run it).
  public func receiveOnMainRunLoop() -> Publishers.ReceiveOn<Self, RunLoop> {
    receive(on: RunLoop.main)
  }
}
