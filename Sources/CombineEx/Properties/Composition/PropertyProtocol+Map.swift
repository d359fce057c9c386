import CombineExCore

extension PropertyProtocol {
  /// Derives a property whose value is `transform` applied to this property's value.
  ///
  /// ```swift
  /// let celsius = MutableProperty(20.0)
  /// let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
  /// let cancellable = fahrenheit.sink { print($0) }  // Prints: 68.0
  /// celsius.value = 100  // Prints: 212.0
  /// print(fahrenheit.value)  // Prints: 212.0
  /// ```
  ///
  /// The result is lazy and keeps no state: reading ``Property/value`` applies `transform` to
  /// this property's current value, and each subscriber subscribes to this property and
  /// receives `transform` of each value it publishes. So `transform` runs once per read and once
  /// per value per subscriber, on the thread that reads or delivers: keep it cheap and free of
  /// side effects. The result keeps this property alive, not the other way round.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Property<T> {
    Property(
      currentValue: { transform(self.value) },
      publisher: Publishers.Map(upstream: self, transform: transform).eraseToAnyPublisher())
  }

  /// Derives a property whose value is the value at `keyPath` of this property's value.
  ///
  /// ```swift
  /// struct Player { var name: String; var score: Int }
  /// let player = MutableProperty(Player(name: "Ada", score: 0))
  /// let score = player.map(\.score)
  /// let cancellable = score.sink { print($0) }  // Prints: 0
  /// player.modify { $0.score += 10 }  // Prints: 10
  /// ```
  ///
  /// Like the closure `map`, the result is lazy: it reads the key path of this property's value.
  public func map<T>(_ keyPath: KeyPath<Output, T>) -> Property<T> {
    map { $0[keyPath: keyPath] }
  }
}
