import CombineExCore

extension PropertyProtocol {
  /// The original CombineEx's `compactMap` on a property: a hot publisher of the transformed
  /// values that are not `nil` (a property cannot skip values, so the result is no property).
  ///
  /// Disfavoured: Combine's `compactMap` (returning `Publishers.CompactMap<Self, T>`) is chosen
  /// unless the caller names this form's type, so closures that capture non-`Sendable` state
  /// keep compiling. The original took a `@Sendable` transform because a property may change on
  /// any thread.
  ///
  /// ```swift
  /// let count = MutableProperty(1)
  /// let evens: Publishers.CompactMap<AnyPublisher<Int, Never>, String> =
  ///   count.compactMap { $0.isMultiple(of: 2) ? "\($0)" : nil }
  /// let cancellable = evens.sink { print($0) }
  /// count.value = 2  // Prints: 2
  /// ```
  @_disfavoredOverload
  public func compactMap<T>(
    _ transform: @escaping @Sendable (Output) -> T?
  ) -> Publishers.CompactMap<AnyPublisher<Output, Never>, T> {
    eraseToAnyPublisher().compactMap { transform($0) }
  }
}
