import CombineExCore

/// Something a view can fire: an ``ActionTrigger``, an ``Action``, or a cold publisher or
/// future (fired without input).
///
/// ```swift
/// @MainActor func button(for convertible: some ActionTriggerConvertible<Void>) -> ActionTrigger<Void> {
///   convertible.asActionTrigger
/// }
/// ```
public protocol ActionTriggerConvertible<Input> {
  /// The input of the trigger.
  associatedtype Input

  /// The trigger: a new one for an action, a publisher or a future; itself for a trigger.
  @MainActor var asActionTrigger: ActionTrigger<Input> { get }
}

extension ActionTrigger: ActionTriggerConvertible {
  /// The trigger itself.
  public var asActionTrigger: ActionTrigger<Input> { self }
}

extension Action: ActionTriggerConvertible {
  /// A new trigger of this action.
  ///
  /// ```swift
  /// @MainActor func makeTrigger(_ action: Action<Void, Int, Never>) -> ActionTrigger<Void> {
  ///   action.asActionTrigger
  /// }
  /// ```
  @MainActor public var asActionTrigger: ActionTrigger<Input> { ActionTrigger(self) }
}

extension AnyDeferredPublisher: ActionTriggerConvertible {
  /// A trigger without input, each of whose runs subscribes to this publisher.
  ///
  /// ```swift
  /// @MainActor func makeTrigger() -> ActionTrigger<Void> {
  ///   AnyDeferredPublisher<Int, Never>.just(1).asActionTrigger
  /// }
  /// ```
  @MainActor public var asActionTrigger: ActionTrigger<Void> {
    ActionTrigger(Action<Void, Output, Failure> { _ in self })
  }
}

extension AnyDeferredFuture: ActionTriggerConvertible {
  /// A trigger without input, each of whose runs subscribes to this future.
  ///
  /// ```swift
  /// @MainActor func makeTrigger() -> ActionTrigger<Void> {
  ///   AnyDeferredFuture<Int, Never>.just(1).asActionTrigger
  /// }
  /// ```
  @MainActor public var asActionTrigger: ActionTrigger<Void> {
    ActionTrigger(Action<Void, Output, Failure> { _ in self.eraseToAnyDeferredPublisher() })
  }
}
