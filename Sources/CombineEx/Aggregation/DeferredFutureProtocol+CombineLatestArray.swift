import CombineExCore

extension DeferredFutureProtocol {
  /// Combines the futures of `array` into a future of the array of their values, in order:
  /// the static spelling of `array.combineLatest()`.
  ///
  /// ```swift
  /// let futures = [DeferredFuture<Int, Never>.just(1), .just(2)]
  /// let both: DeferredFuture<[Int], Never> = DeferredFuture<Int, Never>.combineLatest(
  ///   array: futures)
  /// let cancellable = both.sink { print($0) }
  /// // Prints: [1, 2]
  /// ```
  ///
  /// Disfavoured, as in the original CombineEx: without a type context the `Publisher` form,
  /// `Publisher/combineLatest(array:)` (a `Publishers.Aggregate`), is chosen; this one is
  /// chosen where a future is needed.
  @_disfavoredOverload
  public static func combineLatest(
    array: [some DeferredFutureProtocol<Output, Failure>]
  ) -> DeferredFuture<[Output], Failure> {
    array.combineLatest()
  }
}
