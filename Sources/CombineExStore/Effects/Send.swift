/// Sends values from the asynchronous work of ``Effect/run(priority:operation:catch:)`` to the
/// effect's subscriber.
///
/// Call it like a function: `send(value)`. It may be called from any thread or task; values
/// are delivered in the order they were sent, as the subscriber asks for them. After the effect
/// is cancelled or has finished, sending does nothing.
///
/// ```swift
/// let cancellable = Effect<Int, Never>.run { send in
///   send(1)
///   await Task.yield()
///   send(2)
/// }
/// .sink { print($0) }
/// // Prints: 1, 2 — from the task
/// ```
public struct Send<Output>: Sendable {
  private let deliver: @Sendable (Output) -> Void

  /// Creates a `Send` that hands each value to `deliver`.
  public init(_ deliver: @escaping @Sendable (Output) -> Void) {
    self.deliver = deliver
  }

  /// Sends `value` to the effect's subscriber.
  public func callAsFunction(_ value: Output) {
    deliver(value)
  }
}
