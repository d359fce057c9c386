/// A publisher that never fails and always has a current value.
///
/// Subscribing delivers the current value at once (synchronously, on the subscribing thread,
/// unless another thread is delivering to the property at that moment), then every change.
/// Values are not deduplicated unless you ask for it (`removeDuplicates()`).
///
/// ```swift
/// func show(_ temperature: some PropertyProtocol<Double>) {
///   print("now: \(temperature.value)")
/// }
/// show(MutableProperty(21.5))
/// // Prints: now: 21.5
/// ```
///
/// ``MutableProperty`` is the writable implementation; ``Property`` is the read-only type to
/// expose in APIs.
public protocol PropertyProtocol<Output>: Publisher where Failure == Never {
  /// The kind of values the property holds and publishes.
  associatedtype Output

  /// The current value.
  var value: Output { get }
}
