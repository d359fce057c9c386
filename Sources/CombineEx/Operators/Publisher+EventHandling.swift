import CombineExCore

// The `handle…` family: `handleEvents` with one closure each, named for the event it sees.
// Each returns Combine's `Publishers.HandleEvents`, so it stays cold on a cold publisher. They
// are declared on `Publisher` only; future-returning forms for `DeferredFutureProtocol` live
// with the futures and, being on a more specific protocol, are chosen for futures.

extension Publisher {
  /// Calls `receiveSubscription` when a subscriber attaches (when the upstream hands over its
  /// subscription), then passes everything through.
  ///
  /// ```swift
  /// let cancellable = Just(1).handleSubscription { print("subscribed") }.sink { print($0) }
  /// // Prints: subscribed, 1
  /// ```
  public func handleSubscription(
    _ receiveSubscription: (() -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(receiveSubscription: receiveSubscription.map { handler in { _ in handler() } })
  }

  /// Calls `receiveValue` with each value before passing it on.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher.handleValue { print("saw \($0)") }.sink { _ in }
  /// // Prints: saw 1, saw 2
  /// ```
  public func handleValue(
    _ receiveValue: ((Output) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(receiveOutput: receiveValue)
  }

  /// Calls `receiveError` with the error when the publisher fails (not when it finishes).
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let cancellable = Fail<Int, Offline>(error: Offline())
  ///   .handleError { print("failed: \($0)") }
  ///   .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
  /// // Prints: failed: Offline()
  /// ```
  public func handleError(
    _ receiveError: ((Failure) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(
      receiveCompletion: receiveError.map { handler in
        { completion in
          if case .failure(let error) = completion { handler(error) }
        }
      })
  }

  /// Calls `receiveFinished` when the publisher finishes (not when it fails).
  ///
  /// ```swift
  /// let cancellable = Just(1).handleFinished { print("done") }.sink { _ in }
  /// // Prints: done
  /// ```
  public func handleFinished(
    _ receiveFinished: (() -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(
      receiveCompletion: receiveFinished.map { handler in
        { completion in
          if case .finished = completion { handler() }
        }
      })
  }

  /// Calls `receiveCompletion` with the completion, `.finished` or `.failure`.
  ///
  /// ```swift
  /// let cancellable = Just(1).handleCompletion { print($0) }.sink { _ in }
  /// // Prints: finished
  /// ```
  public func handleCompletion(
    _ receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(receiveCompletion: receiveCompletion)
  }

  /// Calls `receiveCancel` when the subscriber cancels.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject.handleCancel { print("cancelled") }.sink { _ in }
  /// cancellable.cancel()
  /// // Prints: cancelled
  /// ```
  public func handleCancel(
    _ receiveCancel: (() -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(receiveCancel: receiveCancel)
  }
}
