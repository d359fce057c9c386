/// Why a publisher returned by ``Action/apply(_:)`` failed.
///
/// ```swift
/// let isOnline = MutableProperty(false)
/// let upload = Action<String, Int, Never>(enabledIf: Property(isOnline)) { text in
///   .just(text.count)
/// }
/// let cancellable = upload.apply("draft").sink(
///   receiveCompletion: { completion in
///     if case .failure(.disabled) = completion { print("disabled") }
///   },
///   receiveValue: { _ in })
/// // Prints: disabled
/// ```
public enum ActionError<Failure: Error>: Error {
  /// The action refused to start this run: it was disabled (`enabledIf` was `false`) or
  /// another of its runs was in flight. The action's closure was not called.
  case disabled

  /// The run started and its publisher failed with this error.
  case publisherFailure(Failure)
}

extension ActionError: Equatable where Failure: Equatable {}
