/// A subscriber that `subscribe(_:)` puts in front of the one it was given while an
/// introspection object is enabled: it reports each event it forwards, and hands its
/// subscriber an ``IntrospectedSubscription`` so that requests and cancels are reported too.
///
/// As in Combine it shows the wrapped subscriber's identity and description and nothing else
/// (no mirror, no playground description), and it keeps wrapping once the hooks are disabled,
/// reporting nothing then.
struct IntrospectedSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  IntrospectionMarker
{
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  let downstream: Downstream

  var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

  var description: String { String(describing: downstream) }

  /// What a publisher further up reports as its subscriber: Combine shows the wrapped
  /// subscriber, type-erased.
  var erasedDownstream: Any { AnySubscriber(downstream) }

  func receive(subscription: any Subscription) {
    // A subscription that is already reporting (an operator that hands its subscriber the
    // upstream's subscription) is not wrapped twice; the hooks see the original.
    let reported: any Subscription
    let forwarded: any Subscription
    if let introspected = subscription as? IntrospectedSubscription {
      reported = introspected.upstream
      forwarded = introspected
    } else {
      reported = subscription
      forwarded = IntrospectedSubscription(upstream: subscription)
    }
    reportToIntrospection { $0.willReceive(subscriber: downstream, subscription: reported) }
    downstream.receive(subscription: forwarded)
    reportToIntrospection { $0.didReceive(subscriber: downstream, subscription: reported) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    reportToIntrospection { $0.willReceive(subscriber: downstream, input: input) }
    let demand = downstream.receive(input)
    reportToIntrospection {
      $0.didReceive(subscriber: downstream, input: input, resultingDemand: demand)
    }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    reportToIntrospection { $0.willReceive(subscriber: downstream, completion: completion) }
    downstream.receive(completion: completion)
    reportToIntrospection { $0.didReceive(subscriber: downstream, completion: completion) }
  }
}

/// Recognizes a subscriber that already reports to the hooks, so that `subscribe(_:)` does not
/// wrap it again when an operator passes it on to its upstream.
protocol IntrospectionMarker {
  /// The subscriber to report to the hooks in its place.
  var erasedDownstream: Any { get }
}
