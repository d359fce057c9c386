import CombineExCore

extension PropertyProtocol {
  /// A constant property holding `value`, whatever this property holds (the original
  /// CombineEx's `map(value:)`).
  ///
  /// ```swift
  /// let name = MutableProperty("Ada")
  /// let placeholder = name.map(value: "unknown")
  /// name.value = "Grace"
  /// print(placeholder.value)  // Prints: unknown
  /// ```
  ///
  /// As in the original CombineEx, the result is a constant: subscribers receive `value`, then
  /// `.finished`, and it does not follow (or keep alive) this property. To map every change to
  /// the same value, use `map { _ in value }`. Disfavoured, as in the original, so that a
  /// closure or key path `map` wins wherever both could apply.
  @_disfavoredOverload
  public func map<T>(value: T) -> Property<T> {
    Property(value: value)
  }
}
