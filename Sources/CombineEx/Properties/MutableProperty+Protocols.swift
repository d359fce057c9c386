import CombineExCore

// The original CombineEx's `ComposableMutablePropertyProtocol` requires a non-throwing
// `modify(_:)` returning nothing and a non-throwing `withValue(_:)`; a generic `rethrows`
// method cannot witness those, so `MutableProperty` has them as overloads. Where both apply,
// Swift picks these (they are more specific), and they behave as the general forms.
extension MutableProperty: ComposableMutablePropertyProtocol {
  /// Atomically modifies the value and publishes the result once: the general `modify(_:)`
  /// (which can also return a result and rethrow) for a block that returns nothing.
  ///
  /// ```swift
  /// let hits = MutableProperty(0)
  /// hits.modify { $0 += 1 }
  /// print(hits.value)  // Prints: 1
  /// ```
  public func modify(_ block: (inout Output) -> Void) {
    // Returning a value selects the general `modify`, not this overload.
    _ = modify { (value: inout Output) -> Bool in
      block(&value)
      return true
    }
  }

  /// Calls `action` with the current value and returns its result.
  ///
  /// ```swift
  /// let names = MutableProperty(["Ada", "Grace"])
  /// print(names.withValue { $0.count })  // Prints: 2
  /// ```
  public func withValue<Result>(_ action: (Output) -> Result) -> Result {
    action(value)
  }

  /// Calls the throwing `action` with the current value and returns its result, or rethrows
  /// its error (the original CombineEx's spelling of a throwing `withValue(_:)`).
  ///
  /// ```swift
  /// struct Empty: Error {}
  /// let names = MutableProperty<[String]>([])
  /// let first = try? names.tryWithValue { names in
  ///   guard let first = names.first else { throw Empty() }
  ///   return first
  /// }
  /// print(first as Any)  // Prints: nil
  /// ```
  public func tryWithValue<Result>(_ action: (Output) throws -> Result) rethrows -> Result {
    try action(value)
  }
}
