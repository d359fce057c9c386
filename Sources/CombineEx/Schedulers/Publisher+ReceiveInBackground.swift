import CombineExCore
import Dispatch

extension Publisher {
  /// Delivers values and the completion on a global (background) dispatch queue of quality
  /// of service `qos`.
  ///
  /// ```swift
  /// let cancellable = Just(2)
  ///   .receiveInBackground(qos: .utility)
  ///   .map { $0 * 2 }  // runs on a background thread
  ///   .sink { print($0) }
  /// // Prints: 4 — soon, on a background thread
  /// ```
  ///
  /// The result is `receive(on: DispatchQueue.global(qos: qos))`: a global queue is
  /// concurrent, yet the subscriber still receives one event at a time, in order.
  public func receiveInBackground(
    qos: DispatchQoS.QoSClass = .default
  ) -> Publishers.ReceiveOn<Self, DispatchQueue> {
    receive(on: DispatchQueue.global(qos: qos))
  }
}
