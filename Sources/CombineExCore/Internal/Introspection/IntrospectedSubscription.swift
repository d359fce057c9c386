/// The subscription an ``IntrospectedSubscriber`` hands its subscriber: it reports each
/// request and cancel it forwards. Shows the wrapped subscription's identity and description
/// only, as Combine's does.
struct IntrospectedSubscription: Subscription, CustomStringConvertible {
  let upstream: any Subscription

  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

  var description: String { String(describing: upstream) }

  func request(_ demand: Subscribers.Demand) {
    reportToIntrospection { $0.willRequest(subscription: upstream, demand) }
    upstream.request(demand)
    reportToIntrospection { $0.didRequest(subscription: upstream, demand) }
  }

  func cancel() {
    reportToIntrospection { $0.willCancel(subscription: upstream) }
    upstream.cancel()
    reportToIntrospection { $0.didCancel(subscription: upstream) }
  }
}
