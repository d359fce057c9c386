import CombineExCore

extension MutablePropertyProtocol {
  /// A target that sets this property's value, at once, on the thread that publishes.
  ///
  /// ```swift
  /// let volume = MutableProperty(0)
  /// let slider = PassthroughSubject<Int, Never>()
  /// volume.bind() <~ slider
  /// slider.send(7)
  /// print(volume.value)  // Prints: 7
  /// ```
  ///
  /// `volume <~ slider` does the same without the `bind()`.
  public func bind() -> BindTarget<Output> {
    BindTarget(target: self, scheduler: ImmediateScheduler.shared, keyPath: \.value)
  }
}
