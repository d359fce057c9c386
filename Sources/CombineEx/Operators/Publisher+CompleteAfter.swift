import CombineExCore
import Foundation

extension Publisher {
  /// Finishes after `interval` seconds, counted from the subscription, on the main queue;
  /// values published before then pass through.
  ///
  /// ```swift
  /// let ticks = PassthroughSubject<Int, Never>()
  /// let cancellable = ticks.complete(after: 0.5)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ticks.send(1)
  /// // Prints: 1, finished — finished half a second later
  /// // Not run by the doc tests: it needs the main queue.
  /// ```
  ///
  /// The result is `prefix(untilOutputFrom:)` with a `Just(())` delayed on
  /// `DispatchQueue.main`, so the `.finished` is delivered on the main queue; use
  /// ``complete(after:tolerance:scheduler:options:)`` to pick the scheduler (a test scheduler
  /// in tests). The stream may finish or fail earlier on its own.
  public func complete(
    after interval: TimeInterval
  ) -> Publishers.PrefixUntilOutput<Self, Publishers.Delay<Just<Void>, DispatchQueue>> {
    complete(after: .seconds(interval), scheduler: DispatchQueue.main)
  }

  /// Finishes after `stride`, counted from the subscription, on `scheduler`; values published
  /// before then pass through.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test  // import CombineExTesting
  /// let ticks = PassthroughSubject<Int, Never>()
  /// let cancellable = ticks.complete(after: .seconds(2), scheduler: scheduler)
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ticks.send(1)  // Prints: 1
  /// scheduler.advance(by: .seconds(2))  // Prints: finished
  /// ```
  public func complete<S>(
    after stride: S.SchedulerTimeType.Stride,
    tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.PrefixUntilOutput<Self, Publishers.Delay<Just<Void>, S>> where S: Scheduler {
    Publishers.PrefixUntilOutput(
      upstream: self,
      other: Just(()).delay(
        for: stride, tolerance: tolerance, scheduler: scheduler, options: options)
    )
  }
}
