import CombineExCore

extension Publisher {
  /// Replaces every value with `()`: for streams whose values only say "it happened".
  ///
  /// ```swift
  /// let taps = PassthroughSubject<Int, Never>()
  /// let cancellable = taps.mapVoid().sink { print("tap") }
  /// taps.send(1)
  /// taps.send(2)
  /// // Prints: tap, tap
  /// ```
  public func mapVoid() -> Publishers.Map<Self, Void> {
    Publishers.Map(upstream: self) { _ in () }
  }
}

extension DeferredFutureProtocol {
  /// Replaces the future's value with `()`; the result is still a cold future.
  ///
  /// ```swift
  /// let saved: DeferredFuture<Void, Never> = DeferredFuture<Int, Never>.just(3).mapVoid()
  /// let cancellable = saved.sink { print("saved") }
  /// // Prints: saved
  /// ```
  ///
  /// Disfavoured, as in the original CombineEx: where both fit, the `Publisher` form is chosen.
  @_disfavoredOverload
  public func mapVoid() -> DeferredFuture<Void, Failure> {
    map { _ in () }
  }
}
