import CombineExCore

extension Action {
  /// Binds `source` to the action: each value `source` publishes applies the action to it, and
  /// the runs it starts need no cancellable.
  ///
  /// ```swift
  /// let query = MutableProperty("")
  /// let search = Action<String, [String], Never> { text in .just(["\(text) 1", "\(text) 2"]) }
  /// let results = search.values.sink { print($0) }
  /// search <~ query.dropFirst()
  /// query.value = "swift"  // Prints: ["swift 1", "swift 2"]
  /// ```
  ///
  /// ## Semantics
  /// - **Each value is an `apply`.** The run starts at once, on the thread that delivered the
  ///   value. Its values go to ``values``, its failure to ``errors``, its end to ``completed``,
  ///   as for any run. A value that comes while a run is in flight (or while `enabledIf` is
  ///   `false`) is refused: ``disabledErrors`` emits, and the value is dropped.
  /// - **Runs need no cancellable.** A run started by the binding lasts until it ends; like
  ///   every run, it keeps the action alive meanwhile.
  /// - **Lifetime.** The binding lasts until `source` completes (a failure ends it too) or the
  ///   action is freed, whichever comes first; then its subscription to `source` is cancelled
  ///   and released. The binding does not keep the action alive, and the action does not keep
  ///   `source` alive beyond the subscription.
  /// - **Demand.** The binding asks `source` for unlimited values.
  ///
  /// The same as ReactiveSwift's `action <~ producer`. Without it, a run of an action applied
  /// from a pipeline needs `flatMap { action.apply($0).catch { _ in Empty() } }` and a stored
  /// cancellable.
  public static func <~ <Source: Publisher>(action: Action, source: Source)
  where Source.Output == Input {
    source.subscribe(ActionBinding<Input, Output, Failure, Source.Failure>(action: action))
  }
}

/// The subscriber of a binding `action <~ source`: it applies the action to each value.
private final class ActionBinding<Value, Output, RunFailure: Error, SourceFailure: Error>:
  Subscriber, CustomStringConvertible
{
  typealias Input = Value
  typealias Failure = SourceFailure

  /// Weak: the binding must not keep the action alive.
  private weak let action: Action<Value, Output, RunFailure>?
  /// Weak too: the action's bindings hold this subscriber's subscription, which holds it.
  private weak let bindings: ActionBindings?

  init(action: Action<Value, Output, RunFailure>) {
    self.action = action
    bindings = action.bindings
  }

  var description: String { "Action binding" }

  func receive(subscription: any Subscription) {
    guard let bindings, bindings.keep(subscription, for: combineIdentifier) else {
      return subscription.cancel()
    }
    subscription.request(.unlimited)
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    guard let action else { return .none }
    action.apply(input).subscribe(DetachedRun<Output, ActionError<RunFailure>>())
    return .none
  }

  func receive(completion: Subscribers.Completion<SourceFailure>) {
    bindings?.forget(combineIdentifier)
  }
}

/// Runs an applied action to its end, ignoring its events (the action publishes them).
///
/// It keeps no reference to its subscription: the run holds it, until it ends.
private struct DetachedRun<Input, Failure: Error>: Subscriber, CustomStringConvertible {
  let combineIdentifier = CombineIdentifier()

  var description: String { "Action binding run" }

  func receive(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<Failure>) {}
}
