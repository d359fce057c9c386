import CombineExCore

// The original CombineEx's `delay` and `timeout` on futures take a scheduler *time* (a
// deadline) rather than an interval. These overloads keep that spelling working; they are
// disfavored, so an interval (`.seconds(1)`) still picks the interval forms.

extension DeferredFutureProtocol {
  /// Delivers the result on `scheduler` no earlier than `deadline`: at the deadline if the
  /// result came before it, otherwise as soon as the scheduler runs it.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let cancellable = DeferredFuture<Int, Never>.just(1)
  ///   .delay(for: scheduler.now.advanced(by: .seconds(2)), scheduler: scheduler)
  ///   .sink { print($0) }
  /// scheduler.advance(by: .seconds(2))  // Prints: 1
  /// ```
  ///
  /// Prefer the interval form of `delay(for:tolerance:scheduler:options:)` with an interval; this
  /// form exists for code written against the original CombineEx.
  @_disfavoredOverload
  public func delay<S: Scheduler>(
    for deadline: S.SchedulerTimeType, tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S, options: S.SchedulerOptions? = nil
  ) -> DeferredFuture<Output, Failure> {
    chained { result, promise in
      scheduler.schedule(
        after: deadline, tolerance: tolerance ?? scheduler.minimumTolerance, options: options
      ) { promise(result) }
    }
  }

  /// Fails with `customError()` if the result has not arrived by `deadline`; without
  /// `customError`, the future is returned unchanged (as in the original CombineEx, a deadline
  /// with no error never fires).
  ///
  /// ```swift
  /// enum LoadError: Error { case timedOut }
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let cancellable = DeferredFuture<Int, LoadError> { _ in }
  ///   .timeout(scheduler.now.advanced(by: .seconds(5)), scheduler: scheduler,
  ///            customError: { .timedOut })
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// scheduler.advance(by: .seconds(5))  // Prints: failure(LoadError.timedOut)
  /// ```
  ///
  /// The time left is measured when each subscription starts; the work is cancelled when the
  /// deadline passes.
  @_disfavoredOverload
  public func timeout<S: Scheduler>(
    _ deadline: S.SchedulerTimeType, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> Failure)? = nil
  ) -> DeferredFuture<Output, Failure> {
    let future = eraseToAnyDeferredFuture().future
    guard let customError else { return future }
    return DeferredFuture(
      publisher: Deferred {
        future.timeout(
          scheduler.now.distance(to: deadline), scheduler: scheduler, options: options,
          customError: customError)
      })
  }
}
