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
  /// The result is eager, like every composition: it subscribes to this property once, at once,
  /// and to the property `transform` returns for each of its values, cancelling the previous one
  /// (the core's `switchToLatest()`); every subscriber shares that one sequence, and its value is
  /// the last value published. Each switch publishes the new inner property's current value.
  /// `transform` runs once when `flatMap` is called and once per change of this property, never
  /// for a read or a subscriber. The result keeps this property alive, not the other way round;
  /// the inner properties are kept alive by the subscription to them, and should be existing
  /// properties (a field of the value) rather than ones `transform` makes.
  @inlinable
  public func flatMap<Inner: PropertyProtocol>(_ transform: @escaping (Output) -> Inner)
    -> Property<Inner.Output>
  {
    Property(
      deriving: Publishers.Map(upstream: self, transform: transform).switchToLatest(), from: self
    ) { transform(value).value }
  }
}
