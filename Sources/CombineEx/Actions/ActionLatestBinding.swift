import CombineExCore

/// The subscriber of a binding `action.applyLatest(from: source)`: it hands each value of
/// `source` to the binding's ``ActionLatestRuns``.
///
/// It is also what the action's ``ActionBindings`` keep for the binding: cancelling it (the
/// action is being freed) cancels the subscription to `source` and the run in flight.
final class ActionLatestBinding<Value, Output, RunFailure: Error, SourceFailure: Error>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `source` and `isCancelled` are guarded by `lock`; `runs` is
  // thread-safe and immutable.
  typealias Input = Value
  typealias Failure = SourceFailure

  private let lock = Lock()
  /// The subscription to `source`, until it completes or the binding is cancelled.
  private var source: (any Subscription)?
  private var isCancelled = false
  private let runs: ActionLatestRuns<Value, Output, RunFailure>
  /// Weak: the action's bindings hold this binding until it ends.
  private weak let bindings: ActionBindings?

  let combineIdentifier = CombineIdentifier()

  init(action: Action<Value, Output, RunFailure>) {
    bindings = action.bindings
    runs = ActionLatestRuns(action: action, bindingID: combineIdentifier)
  }

  var description: String { "Action latest-wins binding" }

  // MARK: Subscriber (the source)

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard source == nil, !isCancelled else { return false }
      source = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    // Kept before the request, so that an action freed meanwhile cancels it.
    guard let bindings, bindings.keep(self, for: combineIdentifier) else { return cancel() }
    subscription.request(.unlimited)
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    runs.apply(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<SourceFailure>) {
    let released = lock.withLock { () -> (any Subscription)? in
      defer { source = nil }
      return source
    }
    _ = released  // Released here, outside the lock.
    runs.sourceEnded()
  }

  // MARK: Subscription (kept by the action's bindings)

  /// The binding asks `source` for unlimited values itself.
  func request(_ demand: Subscribers.Demand) {}

  /// Ends the binding: the action is being freed.
  func cancel() {
    let source = lock.withLock { () -> (any Subscription)? in
      isCancelled = true
      defer { self.source = nil }
      return self.source
    }
    source?.cancel()
    runs.end()
  }
}
