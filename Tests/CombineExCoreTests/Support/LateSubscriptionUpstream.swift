import CombineExCore

/// An upstream that hands its subscriber a subscription only when the test says so, for tests
/// of what an operator does with events that come before it: values and completions sent
/// early (a misbehaving publisher), a cancel or a request made early through the operator
/// itself, as a subscription (``operatorAsSubscription``).
final class LateSubscriptionUpstream<Output, Failure: Error>: Publisher {
  private var subscriber: AnySubscriber<Output, Failure>?
  /// The operator's subscriber, as it was attached (not erased): the operator itself.
  private var attached: Any?

  /// Every demand requested through the subscription, in order.
  private(set) var requests: [Subscribers.Demand] = []

  /// How many times the subscription was cancelled.
  private(set) var cancelCount = 0

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    self.subscriber = AnySubscriber(subscriber)
    attached = subscriber
  }

  /// The operator, reached as a subscription before it received its own (`nil` if it is not
  /// one).
  var operatorAsSubscription: (any Subscription)? { attached as? any Subscription }

  /// Hands the subscriber its subscription, which records requests and cancels.
  func sendSubscription() {
    subscriber?.receive(subscription: Probe(owner: self))
  }

  /// Delivers `value` and returns the demand the subscriber answers with.
  @discardableResult
  func send(_ value: Output) -> Subscribers.Demand {
    subscriber?.receive(value) ?? .none
  }

  /// Delivers the completion.
  func send(completion: Subscribers.Completion<Failure>) {
    subscriber?.receive(completion: completion)
  }

  private final class Probe: Subscription {
    weak var owner: LateSubscriptionUpstream?
    init(owner: LateSubscriptionUpstream) { self.owner = owner }
    func request(_ demand: Subscribers.Demand) { owner?.requests.append(demand) }
    func cancel() { owner?.cancelCount += 1 }
  }
}
