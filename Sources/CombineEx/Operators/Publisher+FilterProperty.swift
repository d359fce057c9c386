import CombineExCore

extension Publisher {
  /// Passes values through while `isIncluded` is `true`, and drops them while it is `false`:
  /// the property is a gate.
  ///
  /// ```swift
  /// let isOn = MutableProperty(false)
  /// let values = PassthroughSubject<Int, Never>()
  /// let cancellable = values.filter(isOn).sink { print($0) }
  /// values.send(1)
  /// isOn.value = true
  /// values.send(2)
  /// // Prints: 2
  /// ```
  ///
  /// The gate is read (its `value`) when each value arrives; changes of the property publish
  /// nothing by themselves. The result is a `Publishers.Filter`, so it stays cold on a cold
  /// publisher.
  public func filter(_ isIncluded: any PropertyProtocol<Bool>) -> Publishers.Filter<Self> {
    Publishers.Filter(upstream: self) { _ in isIncluded.value }
  }
}
