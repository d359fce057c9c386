import CombineExCore

extension Publisher {
  /// Wraps every value in an optional: for feeding a stream of `T` where `T?` is expected.
  ///
  /// ```swift
  /// let selection = CurrentValueSubject<Int?, Never>(nil)
  /// let cancellable = Just(4).mapOptional().sink { selection.send($0) }
  /// print(selection.value as Any)
  /// // Prints: Optional(4)
  /// ```
  public func mapOptional() -> Publishers.Map<Self, Output?> {
    Publishers.Map(upstream: self) { Optional($0) }
  }
}

extension DeferredFutureProtocol {
  /// Wraps the future's value in an optional; the result is still a cold future.
  ///
  /// ```swift
  /// let maybe: DeferredFuture<Int?, Never> = DeferredFuture<Int, Never>.just(4).mapOptional()
  /// let cancellable = maybe.sink { print($0 as Any) }
  /// // Prints: Optional(4)
  /// ```
  ///
  /// Disfavoured, as in the original CombineEx: where both fit, the `Publisher` form is chosen.
  @_disfavoredOverload
  public func mapOptional() -> DeferredFuture<Output?, Failure> {
    map { Optional($0) }
  }
}
