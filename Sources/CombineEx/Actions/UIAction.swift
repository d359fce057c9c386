import CombineExCore
import Observation

/// The original CombineEx's earlier form of ``ActionTrigger``: an action as a view sees it,
/// with ``isExecuting`` as main-actor observable state and ``applyAnonymous`` to run it.
///
/// ```swift
/// @MainActor func makeAction() -> UIAction<Void> {
///   Action<Void, Int, Never> { .just(1) }.asUIAction
/// }
/// ```
///
/// Prefer ``ActionTrigger``, which also has `isEnabled` and `fire`. On Apple platforms UIKit
/// has a class of the same name: write `CombineEx.UIAction` where both are imported.
@MainActor
@Observable
public final class UIAction<Input> {
  /// Whether the action is running, as applied on the main queue.
  public let isExecuting: UIProperty<Bool>

  /// Returns a cold publisher of a run of the action for an input, which publishes `()` for
  /// each of the run's values and never fails (a refused or failed run finishes).
  @ObservationIgnored
  public let applyAnonymous: (Input) -> AnyDeferredPublisher<Void, Never>

  /// Wraps `internalAction`.
  ///
  /// ```swift
  /// @MainActor func wrap(_ action: Action<String, Bool, Never>) -> UIAction<String> {
  ///   UIAction(action)
  /// }
  /// ```
  public init(_ internalAction: Action<Input, some Any, some Error>) {
    isExecuting = UIProperty(internalAction.isExecuting)
    applyAnonymous = internalAction.anonymousApplication
  }

  /// Creates the wrapper of an action whose run calls `block` with the input.
  ///
  /// ```swift
  /// @MainActor func makeLog() -> UIAction<String> {
  ///   .immediate { print($0) }
  /// }
  /// ```
  public static func immediate(_ block: @escaping (Input) -> Void) -> UIAction<Input> {
    UIAction(Action<Input, Void, Never>.immediate(block))
  }
}

extension Action {
  /// The ``UIAction`` of this action.
  ///
  /// ```swift
  /// @MainActor func wrap(_ action: Action<Void, Int, Never>) -> UIAction<Void> {
  ///   action.asUIAction
  /// }
  /// ```
  @MainActor public var asUIAction: UIAction<Input> { UIAction(self) }
}
