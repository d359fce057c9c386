import CombineExCore

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension PropertyProtocol {
  /// Derives a property from a publisher transform of this property's stream: the property
  /// takes every value the transformed stream publishes.
  ///
  /// ```swift
  /// let clicks = MutableProperty(0)
  /// let total = clicks.lift { $0.scan(0, +) }  // a running sum of every value set
  /// clicks.value = 2
  /// clicks.value = 3
  /// print(total.value)  // Prints: 5
  /// ```
  ///
  /// `transform` receives the property's stream (its current value, then every change) and is
  /// called once, before `lift` returns (so, unlike the original CombineEx's, it need not be
  /// `@Sendable`). The transformed publisher is subscribed to once, at once, like
  /// ``Property/init(initial:then:)``: the result is an eager composition, and its state lives
  /// as long as the returned property or any of its subscribers. When the transformed stream
  /// finishes, the property keeps its last value and its subscribers receive `.finished`.
  ///
  /// - Precondition: The transformed stream must publish a value when it is subscribed to, on
  ///   the subscribing thread, before `subscribe` returns (the property needs a first value).
  ///   A transform that drops the first value (`dropFirst()`, a `filter` that rejects it) or
  ///   delivers it later (`receive(on:)`) stops the program with a
  ///   `CombineEx API violation: lift(_:)` message.
  public func lift<U>(
    _ transform: (AnyPublisher<Output, Never>) -> some Publisher<U, Never>
  ) -> Property<U> {
    let relay = PropertyRelay<U>()
    transform(eraseToAnyPublisher()).subscribe(relay)
    guard let storage = relay.takeStorage(createdOn: pthread_self()) else {
      fatalError(
        "CombineEx API violation: lift(_:): the transformed publisher did not publish a value "
          + "when subscribed. A lifted property needs a first value at once: make sure the "
          + "transform keeps the property's current value (no dropFirst, filter or receive(on:) "
          + "in front of it), or start it with prepend(_:).")
    }
    return Property(derivedFrom: self, storage: storage)
  }
}
