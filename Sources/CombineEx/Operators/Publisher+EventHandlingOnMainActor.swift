import CombineExCore

// The `handle…OnMainActor` family: like the `handle…` family, but each handler runs later, on
// the main actor, while the event itself moves on at once on the publisher's thread. Handlers
// of one subscription run in the order of their events (the hop goes through the main queue,
// which is first-in first-out).

extension Publisher {
  /// Calls `receiveSubscription` on the main actor, soon after a subscriber attaches.
  ///
  /// ```swift
  /// @MainActor final class Screen { var isLoading = false }
  /// let screen = Screen()
  /// let cancellable = Just(1)
  ///   .handleSubscriptionOnMainActor { screen.isLoading = true }
  ///   .sink { _ in }
  /// ```
  ///
  /// The subscription goes on at once; the handler runs asynchronously on the main queue,
  /// even when the publisher runs on the main thread.
  public func handleSubscriptionOnMainActor(
    _ receiveSubscription: (@MainActor @Sendable () -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(
      receiveSubscription: receiveSubscription.map { handler in { _ in hopToMainActor(handler) } })
  }

  /// Calls `receiveValue` on the main actor with each value, soon after it passes.
  ///
  /// ```swift
  /// @MainActor final class Screen { var title = "" }
  /// let screen = Screen()
  /// let cancellable = Just("Inbox")
  ///   .handleValueOnMainActor { screen.title = $0 }
  ///   .sink { _ in }
  /// ```
  ///
  /// The value is handed to the main actor as is (values need not be `Sendable`, as in
  /// Combine): do not mutate a value from both sides.
  public func handleValueOnMainActor(
    _ receiveValue: (@MainActor @Sendable (Output) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(
      receiveOutput: receiveValue.map { handler in
        { value in
          let handoff = Handoff(value)
          hopToMainActor { handler(handoff.value) }
        }
      })
  }

  /// Calls `receiveError` on the main actor with the error, soon after the publisher fails.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// @MainActor final class Screen { var message = "" }
  /// let screen = Screen()
  /// let cancellable = Fail<Int, Offline>(error: Offline())
  ///   .handleErrorOnMainActor { screen.message = "\($0)" }
  ///   .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
  /// ```
  public func handleErrorOnMainActor(
    _ receiveError: (@MainActor @Sendable (Failure) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(
      receiveCompletion: receiveError.map { handler in
        { completion in
          guard case .failure(let error) = completion else { return }
          hopToMainActor { handler(error) }
        }
      })
  }

  /// Calls `receiveFinished` on the main actor, soon after the publisher finishes (not when it
  /// fails).
  ///
  /// ```swift
  /// @MainActor final class Screen { var isLoading = true }
  /// let screen = Screen()
  /// let cancellable = Just(1)
  ///   .handleFinishedOnMainActor { screen.isLoading = false }
  ///   .sink { _ in }
  /// ```
  public func handleFinishedOnMainActor(
    _ receiveFinished: (@MainActor @Sendable () -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(
      receiveCompletion: receiveFinished.map { handler in
        { completion in
          guard case .finished = completion else { return }
          hopToMainActor(handler)
        }
      })
  }

  /// Calls `receiveCompletion` on the main actor with the completion, soon after it passes.
  ///
  /// ```swift
  /// @MainActor final class Screen { var isLoading = true }
  /// let screen = Screen()
  /// let cancellable = Just(1)
  ///   .handleCompletionOnMainActor { _ in screen.isLoading = false }
  ///   .sink { _ in }
  /// ```
  public func handleCompletionOnMainActor(
    _ receiveCompletion: (@MainActor @Sendable (Subscribers.Completion<Failure>) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(
      receiveCompletion: receiveCompletion.map { handler in
        { completion in
          let handoff = Handoff(completion)
          hopToMainActor { handler(handoff.value) }
        }
      })
  }

  /// Calls `receiveCancel` on the main actor, soon after the subscriber cancels.
  ///
  /// ```swift
  /// @MainActor final class Screen { var isLoading = true }
  /// let screen = Screen()
  /// let subject = PassthroughSubject<Int, Never>()
  /// let cancellable = subject.handleCancelOnMainActor { screen.isLoading = false }.sink { _ in }
  /// cancellable.cancel()
  /// ```
  public func handleCancelOnMainActor(
    _ receiveCancel: (@MainActor @Sendable () -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    handleEvents(receiveCancel: receiveCancel.map { handler in { hopToMainActor(handler) } })
  }
}
