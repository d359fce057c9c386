import CombineExCore

extension ComposableMutablePropertyProtocol {
  /// A target that sets one field of this property's value, at once, on the thread that
  /// publishes: each value is written with one atomic ``modify(_:)``, so bindings into
  /// different fields, and other changes of the property, never undo each other.
  ///
  /// ```swift
  /// struct Settings: Equatable { var theme = "light"; var fontSize = 12 }
  /// let settings = MutableProperty(Settings())
  /// let darkMode = PassthroughSubject<Bool, Never>()
  /// let zoom = PassthroughSubject<Int, Never>()
  /// settings.bind(\.theme) <~ darkMode.map { $0 ? "dark" : "light" }
  /// settings.bind(\.fontSize) <~ zoom
  /// darkMode.send(true)
  /// zoom.send(16)
  /// print(settings.value)  // Prints: Settings(theme: "dark", fontSize: 16)
  /// ```
  ///
  /// `settings <~ darkMode.map { var copy = settings.value; copy.theme = $0; return copy }`
  /// reads the value and then sets it: a change made by another thread in between is lost.
  /// The key-path target does the read and the write in one step.
  ///
  /// - Each value of the source publishes the property once (unchanged fields included), as a
  ///   set would; a ``PersistentProperty`` stores it once.
  /// - The binding lives like ``MutablePropertyProtocol/bind()``'s: as long as the property,
  ///   until the source completes; neither side keeps the other alive.
  ///
  /// - Parameter keyPath: The field to set, a writable key path of the property's value.
  public func bind<Field>(_ keyPath: WritableKeyPath<Output, Field>) -> BindTarget<Field> {
    BindTarget { [weak self] values in
      guard let self else { return }
      values.sink(
        duringLifetimeOf: self,
        receiveValue: { [weak self] value in
          self?.modify { $0[keyPath: keyPath] = value }
        })
    }
  }
}
