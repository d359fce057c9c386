import CombineExCore

/// A property whose value can be set: ``MutableProperty`` and ``PersistentProperty`` are the
/// two in CombineEx.
///
/// Write code against it to accept any settable property, and bind one to a publisher with
/// `<~`:
///
/// ```swift
/// func reset(_ counter: some MutablePropertyProtocol<Int>) { counter.value = 0 }
/// let hits = MutableProperty(41)
/// reset(hits)
/// print(hits.value)  // Prints: 0
/// ```
///
/// Conforming types are classes: a binding (`target <~ source`) lives as long as its target, which
/// needs an identity.
public protocol MutablePropertyProtocol<Output>: PropertyProtocol, AnyObject {
  /// The current value. Setting it publishes the new value to every subscriber.
  var value: Output { get set }
}

/// A settable property that can also be read and changed atomically, so that it can be composed
/// safely from several threads.
///
/// `value = value + 1` is a read and then a write, and another thread may set the property in
/// between; `modify { $0 += 1 }` is one atomic step:
///
/// ```swift
/// func bump(_ counter: some ComposableMutablePropertyProtocol<Int>) { counter.modify { $0 += 1 } }
/// let hits = MutableProperty(0)
/// bump(hits)
/// print(hits.withValue { $0 * 10 })  // Prints: 10
/// ```
public protocol ComposableMutablePropertyProtocol<Output>: MutablePropertyProtocol {
  /// Changes the value in one atomic step and publishes the result once.
  func modify(_ block: (inout Output) -> Void)

  /// Calls `action` with the current value and returns its result.
  func withValue<Result>(_ action: (Output) -> Result) -> Result

  /// Calls the throwing `action` with the current value and returns its result, or rethrows
  /// its error.
  func tryWithValue<Result>(_ action: (Output) throws -> Result) rethrows -> Result
}
