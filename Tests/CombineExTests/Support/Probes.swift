import CombineEx

/// A publisher that counts its subscriptions and reports cancels: a probe for coldness and
/// for "cancel reaches the upstream".
final class SubscriptionProbe<Upstream: Publisher> {
  let upstream: Upstream
  private(set) var subscriptions = 0
  private(set) var cancels = 0

  init(_ upstream: Upstream) {
    self.upstream = upstream
  }

  var publisher: AnyPublisher<Upstream.Output, Upstream.Failure> {
    ProbePublisher(probe: self).eraseToAnyPublisher()
  }

  fileprivate func subscribed() { subscriptions += 1 }
  fileprivate func cancelled() { cancels += 1 }
}

private struct ProbePublisher<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let probe: SubscriptionProbe<Upstream>

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    probe.subscribed()
    probe.upstream.subscribe(Relay(downstream: subscriber, probe: probe))
  }

  final class Relay<Downstream: Subscriber>: Subscriber, Subscription
  where Downstream.Input == Output, Downstream.Failure == Failure {
    let downstream: Downstream
    let probe: SubscriptionProbe<Upstream>
    var upstream: (any Subscription)?

    init(downstream: Downstream, probe: SubscriptionProbe<Upstream>) {
      self.downstream = downstream
      self.probe = probe
    }

    func receive(subscription: any Subscription) {
      upstream = subscription
      downstream.receive(subscription: self)
    }
    func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<Failure>) {
      upstream = nil
      downstream.receive(completion: completion)
    }
    func request(_ demand: Subscribers.Demand) { upstream?.request(demand) }
    func cancel() {
      probe.cancelled()
      upstream?.cancel()
      upstream = nil
    }
  }
}
