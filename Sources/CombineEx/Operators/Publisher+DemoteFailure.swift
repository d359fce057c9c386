import CombineExCore

extension Publisher {
  /// Ends the stream quietly on a failure: the failure becomes `.finished`, and the result can
  /// no longer fail (`Failure == Never`).
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let subject = PassthroughSubject<Int, Offline>()
  /// let cancellable = subject.demoteFailure()
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// subject.send(1)
  /// subject.send(completion: .failure(Offline()))
  /// // Prints: 1, finished
  /// ```
  ///
  /// The values before the failure pass through; the error itself is dropped (use
  /// `handleError(_:)` first to see it). Compare ``ignoreFailure()``, which also finishes on a
  /// failure but keeps the failure type. The result is Combine's `catch` with an `Empty`, so
  /// it stays cold on a cold publisher.
  public func demoteFailure() -> Publishers.Catch<Self, Empty<Output, Never>> {
    Publishers.Catch(upstream: self) { _ in Empty<Output, Never>() }
  }
}
