import CombineExCore

extension PropertyProtocol {
  /// Derives a property that holds the last value that satisfied `isIncluded`, starting with
  /// `initial`.
  ///
  /// ```swift
  /// let input = MutableProperty(-1)
  /// let lastPositive = input.filter(initial: 0) { $0 > 0 }
  /// let cancellable = lastPositive.sink { print($0) }  // Prints: 0
  /// input.value = 5  // Prints: 5
  /// input.value = -3  // (nothing)
  /// print(lastPositive.value)  // Prints: 5
  /// ```
  ///
  /// If this property's current value satisfies `isIncluded`, it is the initial value instead
  /// of `initial`. The result is **eager**: it subscribes to this property once, at once, so it
  /// remembers the last included value for subscribers that come later. It stays subscribed
  /// while the returned property or any of its subscribers is alive, and keeps this property
  /// alive.
  @inlinable
  public func filter(initial: Output, _ isIncluded: @escaping (Output) -> Bool) -> Property<Output>
  {
    Property(
      deriving: Publishers.Filter(upstream: self, isIncluded: isIncluded).prepend(initial),
      from: self
    ) {
      let current = value
      return isIncluded(current) ? current : initial
    }
  }
}
