import CombineExCore

extension PropertyProtocol {
  /// Wraps this property in a read-only ``Property``: the same as `Property(self)`.
  ///
  /// ```swift
  /// final class Player {
  ///   private let mutableScore = MutableProperty(0)
  ///   var score: Property<Int> { mutableScore.eraseToProperty() }
  /// }
  /// print(Player().score.value)  // Prints: 0
  /// ```
  public func eraseToProperty() -> Property<Output> {
    Property(self)
  }

  /// Mirrors this property in a ``UIProperty``, for SwiftUI: the same as `UIProperty(self)`.
  ///
  /// ```swift
  /// let progress = MutableProperty(0.5)
  /// let shown = progress.eraseToUIProperty()
  /// print(shown.value)  // Prints: 0.5
  /// ```
  public func eraseToUIProperty() -> UIProperty<Output> {
    UIProperty(self)
  }
}
