import CombineExCore
import Synchronization

extension Property {
  /// Attaches a subscriber with closure-based behavior, which receives the current value, then
  /// every change, until the returned `AnyCancellable` is cancelled or deinitialized.
  ///
  /// ```swift
  /// let celsius = MutableProperty(20)
  /// let doubled = celsius.map { $0 * 2 }
  /// let cancellable = doubled.sink(
  ///   receiveCompletion: { print("completion: \($0)") },
  ///   receiveValue: { print("value: \($0)") })  // Prints: value: 40
  /// celsius.value = 21  // Prints: value: 42
  /// ```
  ///
  /// `Publisher`'s `sink`, with the same behavior: an eager property (a composition, or
  /// ``init(initial:then:)``) attaches its subscribers to a subject core of its own or of its
  /// source, so its `sink` keeps the closures in that core's subscription, as a
  /// ``MutableProperty``'s does, instead of a `Subscribers.Sink` (one object fewer per
  /// subscription, no sink state per value). Other properties use `Publisher`'s.
  @inlinable
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Never>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    // Not while an `_Introspection` is enabled: it must see a subscriber subscribe (as in
    // `Publisher`'s `sink`).
    guard storage != nil, !introspectionIsActive.load(ordering: .relaxed) else {
      return publisherSink(self, receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    }
    return attachSubjectSink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
  }

  /// Attaches a subscriber with closure-based behavior, which receives the current value, then
  /// every change (see ``sink(receiveCompletion:receiveValue:)``).
  ///
  /// ```swift
  /// let count = MutableProperty(1)
  /// let cancellable = count.map { $0 * 10 }.sink { print($0) }  // Prints: 10
  /// count.value = 2  // Prints: 20
  /// ```
  @inlinable
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}

/// `Publisher`'s `sink` on `publisher` (which a type's own `sink` would shadow).
@inlinable
func publisherSink<P: Publisher>(
  _ publisher: P,
  receiveCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void,
  receiveValue: @escaping (P.Output) -> Void
) -> AnyCancellable {
  publisher.sink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
}
