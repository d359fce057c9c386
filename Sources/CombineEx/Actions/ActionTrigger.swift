import CombineExCore
import Observation

/// An action as a view sees it: whether it runs and whether it may run, as observable
/// main-actor state, and a way to fire it that ignores its values and errors.
///
/// Build one in a view model, where the action's `values` and `errors` are handled, and give
/// it to the view, which only fires it and shows its state:
///
/// ```swift
/// @MainActor final class LoginModel {
///   let login = Action<Void, String, Never> { .just("token") }
///   lazy var trigger = ActionTrigger(login)
/// }
/// // In a SwiftUI view: Button("Log in") { model.trigger.fire() }
/// //   .disabled(!model.trigger.isEnabled.value)
/// ```
///
/// ## Semantics
/// - ``isExecuting`` and ``isEnabled`` are ``UIProperty`` mirrors of the action's
///   `isExecuting` and `isEnabled`: they change on the main queue, where Observation clients
///   (SwiftUI, `withObservationTracking`) see the changes.
/// - ``applyAnonymous`` (and ``apply(_:)``) return a cold publisher of the action's run that
///   cannot fail and publishes `()` for each value: a refused run finishes empty (the action's
///   `disabledErrors` emits), and a failed run finishes too (the action's `errors` emits).
/// - ``fire(_:)`` starts a run that lasts as long as the trigger, without a cancellable.
/// - The trigger keeps the action alive. It is main-actor isolated: create it and use it on the
///   main actor. It uses Observation only (no SwiftUI), so it works on Linux.
@MainActor
@Observable
public final class ActionTrigger<Input> {
  /// Whether the action is running, as applied on the main queue.
  public let isExecuting: UIProperty<Bool>

  /// Whether the action would start a run now (`enabledIf && !isExecuting`), as applied on the
  /// main queue: what enables the control that fires it.
  public let isEnabled: UIProperty<Bool>

  /// Returns a cold publisher of a run of the action for an input, which publishes `()` for
  /// each of the run's values and never fails.
  @ObservationIgnored
  public let applyAnonymous: (Input) -> AnyDeferredPublisher<Void, Never>

  /// Creates the trigger of `internalAction`.
  ///
  /// ```swift
  /// @MainActor func makeTrigger() -> ActionTrigger<Int> {
  ///   ActionTrigger(Action<Int, Int, Never> { .just($0) })
  /// }
  /// ```
  public init(_ internalAction: Action<Input, some Any, some Error>) {
    isExecuting = UIProperty(internalAction.isExecuting)
    isEnabled = UIProperty(internalAction.isEnabled)
    applyAnonymous = internalAction.anonymousApplication
  }

  /// The same as ``applyAnonymous``: a cold publisher of a run of the action for `input`.
  ///
  /// ```swift
  /// @MainActor func save(_ trigger: ActionTrigger<String>) -> AnyCancellable {
  ///   trigger.apply("draft").sink { _ in }
  /// }
  /// ```
  public func apply(_ input: Input) -> AnyDeferredPublisher<Void, Never> {
    applyAnonymous(input)
  }

  /// Starts a run of the action for `input` that lasts as long as the trigger (or until it
  /// ends), with no cancellable to keep.
  ///
  /// ```swift
  /// @MainActor func tapped(_ trigger: ActionTrigger<Int>) {
  ///   trigger.fire(42)
  /// }
  /// ```
  public func fire(_ input: Input) {
    applyAnonymous(input).sink(duringLifetimeOf: self)
  }

  /// Creates a trigger for an action that calls `block` on the main actor (see
  /// `Action/immediateOnMainActor(enabledIf:_:)`).
  ///
  /// ```swift
  /// @MainActor func makeClose() -> ActionTrigger<Void> {
  ///   .immediate { print("closed") }
  /// }
  /// ```
  public static func immediate(
    enabledIf: Property<Bool> = Property(value: true),
    _ block: @escaping @MainActor (Input) -> Void
  ) -> ActionTrigger<Input> {
    ActionTrigger(Action<Input, Void, Never>.immediateOnMainActor(enabledIf: enabledIf, block))
  }
}

extension ActionTrigger where Input == Void {
  /// ``apply(_:)`` for a trigger without input.
  ///
  /// ```swift
  /// @MainActor func refresh(_ trigger: ActionTrigger<Void>) -> AnyCancellable {
  ///   trigger.apply().sink { _ in }
  /// }
  /// ```
  public func apply() -> AnyDeferredPublisher<Void, Never> {
    applyAnonymous(())
  }

  /// ``fire(_:)`` for a trigger without input.
  ///
  /// ```swift
  /// @MainActor func tapped(_ trigger: ActionTrigger<Void>) {
  ///   trigger.fire()
  /// }
  /// ```
  public func fire() {
    applyAnonymous(()).sink(duringLifetimeOf: self)
  }
}

extension Action {
  /// A run of the action for an input, as a cold publisher that publishes `()` for each value
  /// and never fails: a refused run (see `applyIfPossible`) and a failed run both finish.
  var anonymousApplication: (Input) -> AnyDeferredPublisher<Void, Never> {
    { input in
      self.applyIfPossible(input)
        .map { _ in () }
        .catch { _ in Empty<Void, Never>() }
        .eraseToAnyDeferredPublisher()
    }
  }
}
