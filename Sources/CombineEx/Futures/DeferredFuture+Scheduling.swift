import CombineExCore

// Single-value scheduling operators; each returns a cold `DeferredFuture`.

extension DeferredFutureProtocol {
  /// Delays the future's result (value and completion, or failure) by `interval`.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let cancellable = DeferredFuture<String, Never>.just("hello")
  ///   .delay(for: .seconds(1), scheduler: scheduler)
  ///   .sink { print($0) }
  /// scheduler.advance(by: .seconds(1))  // Prints: hello
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The amount of time to delay.
  ///   - tolerance: The allowed tolerance in delivering the result.
  ///   - scheduler: The scheduler to deliver the result on.
  ///   - options: Options for the scheduler.
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S, options: S.SchedulerOptions? = nil
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture(
      publisher: erasedPublisher.delay(
        for: interval, tolerance: tolerance, scheduler: scheduler, options: options))
  }

  /// Fails with `customError()` if the value has not arrived within `interval` of the
  /// subscription; the work is then cancelled.
  ///
  /// ```swift
  /// enum LoadError: Error { case timedOut }
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let cancellable = DeferredFuture<Int, LoadError> { _ in }  // Never fulfilled.
  ///   .timeout(.seconds(5), scheduler: scheduler, customError: { .timedOut })
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// scheduler.advance(by: .seconds(5))  // Prints: failure(LoadError.timedOut)
  /// ```
  ///
  /// Unlike `Publisher.timeout`, the error is required: a future that timed out without a
  /// value must say why, since finishing without a value would break its one-result promise.
  /// The result is delivered on `scheduler`, and the clock restarts with the subscriber's first
  /// request if that comes later than the subscription.
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: @escaping () -> Failure
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture(
      publisher: erasedPublisher.timeout(
        interval, scheduler: scheduler, options: options, customError: customError))
  }

  /// Delivers the future's result on `scheduler`.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let cancellable = DeferredFuture<Int, Never>.just(1)
  ///   .receive(on: scheduler)
  ///   .sink { print($0) }
  /// scheduler.advance()  // Prints: 1
  /// ```
  public func receive<S: Scheduler>(
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture(publisher: erasedPublisher.receive(on: scheduler, options: options))
  }

  /// Subscribes, and so starts the work, on `scheduler`; requests and cancellation go through
  /// it too.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let future = DeferredFuture<Int, Never> { promise in
  ///   print("working")
  ///   promise(.success(1))
  /// }
  /// let cancellable = future.subscribe(on: scheduler).sink { print($0) }
  /// scheduler.advance()  // Prints: working, 1
  /// ```
  public func subscribe<S: Scheduler>(
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> DeferredFuture<Output, Failure> {
    DeferredFuture(publisher: erasedPublisher.subscribe(on: scheduler, options: options))
  }
}
