import CombineExCore

/// Where an ``ActionLatestRun`` is.
enum ActionLatestRunPhase {
  /// The run's publisher has not sent its subscription yet.
  case awaitingSubscription
  /// Running.
  case subscribed(any Subscription)
  /// Cancelled (replaced, or the action was freed): a publisher racing the cancel on another
  /// thread may still deliver.
  case cancelled
  /// Completed: nothing more comes.
  case completed
}

/// One run of a latest-wins binding: subscribed to the publisher the action's closure made for
/// one input, it passes the run's events to the binding's ``ActionLatestRuns``, which decides
/// what the action publishes.
///
/// It passes on what comes after its own cancel, too (a publisher whose events race the
/// cancel on another thread still delivers them): the runs drop the events of a run that is
/// no longer the latest by its ticket, so that one rule, in one place, decides.
///
/// It holds the binding's runs (and through them the action's storage), not the action.
final class ActionLatestRun<Input, Output, RunFailure: Error>: Subscriber,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `phase` is guarded by `lock`; the rest is immutable. Calls to
  // `runs` are serial per run because the upstream's are.
  typealias Failure = RunFailure

  /// The run's ticket at the action's gate.
  let ticket: ActionRunTicket
  private let runs: ActionLatestRuns<Input, Output, RunFailure>
  private let lock = Lock()
  private var phase = ActionLatestRunPhase.awaitingSubscription

  init(ticket: ActionRunTicket, runs: ActionLatestRuns<Input, Output, RunFailure>) {
    self.ticket = ticket
    self.runs = runs
  }

  var description: String { "Action latest-wins run" }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = phase else { return false }
      phase = .subscribed(subscription)
      return true
    }
    // A second subscription, or one that comes after the run was cancelled, is cancelled.
    guard accepted else { return subscription.cancel() }
    subscription.request(.unlimited)
  }

  func receive(_ input: Output) -> Subscribers.Demand {
    let completed = lock.withLock { () -> Bool in
      guard case .completed = phase else { return false }
      return true
    }
    if !completed { runs.receive(input, from: self) }
    return .none
  }

  func receive(completion: Subscribers.Completion<RunFailure>) {
    let first = lock.withLock { () -> Bool in
      if case .completed = phase { return false }
      phase = .completed
      return true
    }
    if first { runs.receive(completion: completion, from: self) }
  }

  /// Cancels the run's publisher (at once, or when its subscription arrives). It reports
  /// nothing: the caller decides what the action publishes.
  func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      switch phase {
      case .awaitingSubscription:
        phase = .cancelled
        return nil
      case .subscribed(let subscription):
        phase = .cancelled
        return subscription
      case .cancelled, .completed:
        return nil
      }
    }
    subscription?.cancel()
  }
}
