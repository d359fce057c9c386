import CombineExCore

extension PropertyProtocol where Output: Equatable {
  /// Derives a property that publishes only the values that differ from the previous one.
  ///
  /// ```swift
  /// let query = MutableProperty("")
  /// let distinct = query.removeDuplicates()
  /// let cancellable = distinct.sink { print("search '\($0)'") }  // Prints: search ''
  /// query.value = "swift"  // Prints: search 'swift'
  /// query.value = "swift"  // (nothing)
  /// query.value = "combine"  // Prints: search 'combine'
  /// ```
  ///
  /// The result is eager, like every composition: it subscribes to this property once, at once,
  /// and every subscriber shares that one deduplicated sequence. Its value is the last value
  /// published: for values equal but distinct (two objects with the same identifier), the one
  /// that was published first stays. It stays subscribed while the returned property or any of
  /// its subscribers is alive, and keeps this property alive.
  @inlinable
  public func removeDuplicates() -> Property<Output> {
    Property(
      deriving: Publishers.RemoveDuplicates(upstream: self, predicate: ==), from: self
    ) { value }
  }
}

extension PropertyProtocol {
  /// Derives a property that publishes only the values that `predicate` does not consider
  /// duplicates of the value before them.
  ///
  /// ```swift
  /// let temperature = MutableProperty(20.0)
  /// let display = temperature.removeDuplicates { abs($0 - $1) < 0.5 }
  /// let cancellable = display.sink { print($0) }  // Prints: 20.0
  /// temperature.value = 20.3  // (nothing: within 0.5 of 20.0)
  /// temperature.value = 20.6  // (nothing: within 0.5 of 20.3)
  /// print(display.value)  // Prints: 20.0
  /// temperature.value = 21.2  // Prints: 21.2
  /// ```
  ///
  /// `predicate(previous, new)` returns `true` when `new` is a duplicate of `previous`, the
  /// value received just before it, published or not (as Combine's `removeDuplicates(by:)`
  /// does). The result is **eager**: it subscribes to this property once, at once, and every
  /// subscriber shares that one deduplicated sequence, so its value is the last value
  /// published (20.0 above while the source is at 20.6) and subscribers agree on it even when
  /// `predicate` is not an equivalence. It stays subscribed while the returned property or any
  /// of its subscribers is alive, and keeps this property alive.
  @inlinable
  public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
    -> Property<Output>
  {
    Property(
      deriving: Publishers.RemoveDuplicates(upstream: self, predicate: predicate), from: self
    ) { value }
  }
}
