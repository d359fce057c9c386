import CombineExCore

/// An upstream under the test's direct control, for operator tests: it accepts one subscriber,
/// hands it a subscription that records every request and cancel, and lets the test send
/// values and completions straight to the subscriber, whatever the demand (so a test can see
/// what the operator does with the demand it asked for, and what it returns).
final class ScriptedUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked Sendable: `state` is a LockedBox; the subscriber is only called by the test thread.
  private struct State {
    var subscriber: AnySubscriber<Output, Failure>?
    var requests: [Subscribers.Demand] = []
    var cancels = 0
  }

  private let state = LockedBox(State())

  /// Every demand requested through the subscription, in order.
  var requests: [Subscribers.Demand] { state.withLock { $0.requests } }

  /// The sum of the requested demand.
  var totalDemand: Subscribers.Demand { requests.reduce(.none, +) }

  /// How many times the subscription was cancelled.
  var cancels: Int { state.withLock { $0.cancels } }

  /// Whether a subscriber is attached.
  var hasSubscriber: Bool { state.withLock { $0.subscriber != nil } }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    state.withLock { $0.subscriber = AnySubscriber(subscriber) }
    subscriber.receive(subscription: ScriptedSubscription(upstream: self))
  }

  /// Sends a value and returns the demand the subscriber returned.
  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    let subscriber = state.withLock { $0.subscriber }
    return subscriber?.receive(value) ?? .none
  }

  /// Sends a completion.
  func send(completion: Subscribers.Completion<Failure>) {
    let subscriber = state.withLock { $0.subscriber }
    subscriber?.receive(completion: completion)
  }

  fileprivate func record(_ demand: Subscribers.Demand) {
    state.withLock { $0.requests.append(demand) }
  }

  fileprivate func recordCancel() {
    // The subscriber stays attached, so a test can check that the operator ignores what a
    // careless upstream still sends after the cancel.
    state.withLock { $0.cancels += 1 }
  }
}

private final class ScriptedSubscription<Output, Failure: Error>: Subscription, Sendable {
  let upstream: ScriptedUpstream<Output, Failure>

  init(upstream: ScriptedUpstream<Output, Failure>) {
    self.upstream = upstream
  }

  func request(_ demand: Subscribers.Demand) { upstream.record(demand) }

  func cancel() { upstream.recordCancel() }
}
