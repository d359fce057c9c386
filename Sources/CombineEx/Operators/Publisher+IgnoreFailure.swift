import CombineExCore

extension Publisher {
  /// Ends the stream quietly on a failure, keeping the failure type: the failure becomes
  /// `.finished`.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let subject = PassthroughSubject<Int, Offline>()
  /// let quiet: AnyPublisher<Int, Offline> = subject.ignoreFailure().eraseToAnyPublisher()
  /// let cancellable = quiet.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// subject.send(1)
  /// subject.send(completion: .failure(Offline()))
  /// // Prints: 1, finished
  /// ```
  ///
  /// Useful where an API's type says it may fail but this caller wants a failure to end the
  /// stream like a `.finished`. Use ``demoteFailure()`` to change the failure type to `Never`
  /// as well. CombineExt has an `ignoreFailure` too: see Docs/Migrating.md for the
  /// module-qualified spelling when both are imported.
  public func ignoreFailure() -> Publishers.Catch<Self, Empty<Output, Failure>> {
    Publishers.Catch(upstream: self) { _ in Empty<Output, Failure>() }
  }
}
