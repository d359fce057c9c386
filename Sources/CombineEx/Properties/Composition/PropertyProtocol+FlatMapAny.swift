import CombineExCore

extension PropertyProtocol {
  /// Derives a property that follows the property `transform` returns for this property's
  /// latest value, where `transform` returns an existential `any PropertyProtocol` (the original
  /// CombineEx's signature).
  ///
  /// ```swift
  /// let useMetric = MutableProperty(true)
  /// let metres = MutableProperty(1.0)
  /// let feet = MutableProperty(3.3)
  /// let shown = useMetric.flatMap { metric -> any PropertyProtocol<Double> in
  ///   metric ? metres : feet
  /// }
  /// useMetric.value = false
  /// print(shown.value)  // Prints: 3.3
  /// ```
  ///
  /// It behaves as the generic ``flatMap(_:)``, which wins wherever both apply (this one is
  /// disfavoured): it is eager, and each switch publishes the new inner property's current value.
  @_disfavoredOverload
  public func flatMap<NewOutput>(
    _ transform: @escaping @Sendable (Output) -> any PropertyProtocol<NewOutput>
  ) -> Property<NewOutput> {
    flatMap { (value: Output) -> Property<NewOutput> in Property(transform(value)) }
  }
}
