import CombineExCore

extension PropertyProtocol {
  /// Derives a property that follows the property `transform` returns for this property's
  /// latest value (ReactiveSwift's `flatMap(.latest)`).
  ///
  /// ```swift
  /// final class Room {
  ///   let topic: MutableProperty<String>
  ///   init(_ topic: String) { self.topic = MutableProperty(topic) }
  /// }
  /// let lobby = Room("welcome")
  /// let kitchen = Room("lunch")
  /// let current = MutableProperty(lobby)
  /// let topic = current.flatMap { $0.topic }
  /// let cancellable = topic.sink { print($0) }  // Prints: welcome
  /// current.value = kitchen  // Prints: lunch
  /// lobby.topic.value = "ignored"  // (nothing: no longer the current room)
  /// kitchen.topic.value = "dinner"  // Prints: dinner
  /// ```
  ///
  /// The result is lazy: its value is `transform(value).value`, and each subscriber subscribes
  /// to this property, and to the property `transform` returns for each of its values,
  /// cancelling the previous one (the core's `switchToLatest()`). Each switch publishes the new
  /// inner property's current value. `transform` runs once per read and once per value per
  /// subscriber, so it should return an existing property (a field of the value), not build a
  /// new one with side effects.
  public func flatMap<Inner: PropertyProtocol>(_ transform: @escaping (Output) -> Inner)
    -> Property<Inner.Output>
  {
    Property(
      currentValue: { transform(self.value).value },
      publisher: Publishers.Map(upstream: self, transform: transform).switchToLatest()
        .eraseToAnyPublisher())
  }
}
