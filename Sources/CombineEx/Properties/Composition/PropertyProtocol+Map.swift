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
  /// The result is eager, like every composition: it subscribes to this property once, at once,
  /// and caches the result. So `transform` runs once when `map` is called and once per change of
  /// this property, whether or not anybody reads or observes the result, and never for a read
  /// or a subscriber: ``Property/value`` returns the cached result, and every subscriber receives
  /// the same results (a transform that makes an object gives every reader and subscriber the
  /// same instance). `transform` runs on the thread that delivers the change (the one that set it). The result
  /// keeps this property alive, not the other way round; its subscription to this property lasts
  /// as long as the result or any of its subscribers.
  @inlinable
  public func map<T>(_ transform: @escaping (Output) -> T) -> Property<T> {
    let property = Property(
      deriving: Publishers.Map(upstream: self, transform: transform), from: self
    ) {
      transform(value)
    }
    // Fused with its source when it can be: the map's subscribers then attach to the source's
    // core, and each change reaches them in the source's delivery (PropertySourceAttachment).
    if let attachment = PropertySourceAttachment<T>(fusing: self) {
      let storage = property.storage.unsafelyUnwrapped
      storage.sourceAttachment = attachment
      // Its relay writes only in the source's deliveries, where its own core's subscribers
      // attach (PropertyCell.writesAreSerializedWithAttaches).
      storage.cell.serializeWritesWithAttaches()
    }
    return property
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
  /// Like the closure `map`, the result is eager: it reads the key path once per change.
  @inlinable
  public func map<T>(_ keyPath: KeyPath<Output, T>) -> Property<T> {
    map { $0[keyPath: keyPath] }
  }
}
