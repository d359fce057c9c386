import CombineExCore

extension Property {
  /// A constant property: the same as ``init(value:)``, spelled as the original CombineEx does.
  ///
  /// ```swift
  /// let title: Property<String> = .just("Inbox")
  /// print(title.value)  // Prints: Inbox
  /// ```
  public static func just(_ value: Output) -> Self {
    .init(value: value)
  }
}
