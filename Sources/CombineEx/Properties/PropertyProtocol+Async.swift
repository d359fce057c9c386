import CombineExCore
import Dispatch

extension PropertyProtocol where Self: Sendable, Output: Sendable {
  /// The current value, read on `queue` and awaited.
  ///
  /// ```swift
  /// let temperature = Property(value: 21)
  /// let reading = await temperature.async()
  /// print(reading)  // Prints: 21
  /// ```
  ///
  /// Reading on a given queue serializes the read with other work on that queue (a serial queue
  /// that also sets the property, say). The property is read when the queue runs the read, not
  /// when `async` is called. The calling task is suspended meanwhile, not blocked.
  public func async(_ queue: DispatchQueue = .global()) async -> Output {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: self.value) }
    }
  }
}
