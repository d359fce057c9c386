import CombineExCore

// The original CombineEx's `handle…OnMainActor` hooks, for futures: like the future `handle…`
// hooks (DeferredFuture+EventHandling.swift), each returns a cold `DeferredFuture`, so a chain
// of them stays a future, and they win over the `Publisher` forms of the same names (which
// return `Publishers.HandleEvents`) without any annotation. Like the `Publisher` forms, each
// handler runs later, on the main actor, while the event moves on at once; handlers of one
// subscription run in the order of their events (the hop goes through the main queue, which
// is first-in first-out).

extension DeferredFutureProtocol {
  /// Calls `receiveSubscription` on the main actor, soon after a subscription starts (the work
  /// starts at once).
  ///
  /// ```swift
  /// @MainActor final class Screen { var isLoading = false }
  /// let screen = Screen()
  /// let load = DeferredFuture<Int, Never>.just(1)
  ///   .handleSubscriptionOnMainActor { screen.isLoading = true }  // still a DeferredFuture
  /// ```
  public func handleSubscriptionOnMainActor(
    _ receiveSubscription: (@MainActor @Sendable () -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(
      receiveSubscription: receiveSubscription.map { handler in { _ in hopToMainActor(handler) } })
  }

  /// Calls `receiveValue` on the main actor with the future's value, soon after it passes.
  ///
  /// ```swift
  /// @MainActor final class Screen { var score = 0 }
  /// let screen = Screen()
  /// let load = DeferredFuture<Int, Never>.just(42)
  ///   .handleValueOnMainActor { screen.score = $0 }
  /// ```
  ///
  /// The value is handed to the main actor as is (values need not be `Sendable`, as in
  /// Combine): do not mutate a value from both sides.
  public func handleValueOnMainActor(
    _ receiveValue: (@MainActor @Sendable (Output) -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(
      receiveOutput: receiveValue.map { handler in
        { value in
          let handoff = Handoff(value)
          hopToMainActor { handler(handoff.value) }
        }
      })
  }

  /// Calls `receiveError` on the main actor with the future's failure, soon after it passes.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// @MainActor final class Screen { var message = "" }
  /// let screen = Screen()
  /// let load = DeferredFuture<Int, Offline>.fail(Offline())
  ///   .handleErrorOnMainActor { screen.message = "\($0)" }
  /// ```
  public func handleErrorOnMainActor(
    _ receiveError: (@MainActor @Sendable (Failure) -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(
      receiveCompletion: receiveError.map { handler in
        { completion in
          guard case .failure(let error) = completion else { return }
          let handoff = Handoff(error)
          hopToMainActor { handler(handoff.value) }
        }
      })
  }

  /// Calls `receiveFinished` on the main actor, soon after the future is done, with its value
  /// or with a failure (as the original CombineEx does for futures).
  ///
  /// ```swift
  /// @MainActor final class Screen { var isLoading = true }
  /// let screen = Screen()
  /// let load = DeferredFuture<Int, Never>.just(1)
  ///   .handleFinishedOnMainActor { screen.isLoading = false }
  /// ```
  ///
  /// A cancelled subscription is not done: use ``handleCancelOnMainActor(_:)`` for that.
  public func handleFinishedOnMainActor(
    _ receiveFinished: (@MainActor @Sendable () -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(
      receiveCompletion: receiveFinished.map { handler in { _ in hopToMainActor(handler) } })
  }

  /// Calls `receiveCompletion` on the main actor with the future's result, soon after it
  /// passes: `.success` with the value, or `.failure` with the failure.
  ///
  /// ```swift
  /// @MainActor final class Screen { var status = "" }
  /// let screen = Screen()
  /// let load = DeferredFuture<Int, Never>.just(3)
  ///   .handleCompletionOnMainActor { screen.status = "\($0)" }  // success(3)
  /// ```
  public func handleCompletionOnMainActor(
    _ receiveCompletion: (@MainActor @Sendable (Result<Output, Failure>) -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleCompletion(
      receiveCompletion.map { handler in
        { result in
          let handoff = Handoff(result)
          hopToMainActor { handler(handoff.value) }
        }
      })
  }

  /// Calls `receiveCancel` on the main actor, soon after the subscriber cancels before the
  /// result.
  ///
  /// ```swift
  /// @MainActor final class Screen { var isLoading = true }
  /// let screen = Screen()
  /// let load = DeferredFuture<Int, Never> { _ in }  // never fulfilled
  ///   .handleCancelOnMainActor { screen.isLoading = false }
  /// ```
  public func handleCancelOnMainActor(
    _ receiveCancel: (@MainActor @Sendable () -> Void)? = nil
  ) -> DeferredFuture<Output, Failure> {
    handleEvents(receiveCancel: receiveCancel.map { handler in { hopToMainActor(handler) } })
  }
}
