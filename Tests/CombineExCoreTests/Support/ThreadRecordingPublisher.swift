import CombineExCore
import Dispatch

/// A publisher that forwards to `upstream` and records, for each `receive(subscriber:)`,
/// `request` and `cancel`, whether it ran on the queue marked with `key`.
struct QueueRecordingPublisher<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let upstream: Upstream
  let key: DispatchSpecificKey<Bool>
  let log: Log<String>

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    log.append("subscribe:\(onQueue)")
    upstream.subscribe(Recorder(downstream: subscriber, key: key, log: log))
  }

  private var onQueue: Bool { DispatchQueue.getSpecific(key: key) == true }

  final class Recorder<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    // @unchecked Sendable: `upstream` is written once, before the downstream can call in.
    let downstream: Downstream
    let key: DispatchSpecificKey<Bool>
    let log: Log<String>
    var upstream: (any Subscription)?

    init(downstream: Downstream, key: DispatchSpecificKey<Bool>, log: Log<String>) {
      self.downstream = downstream
      self.key = key
      self.log = log
    }

    private var onQueue: Bool { DispatchQueue.getSpecific(key: key) == true }

    func receive(subscription: any Subscription) {
      upstream = subscription
      downstream.receive(subscription: self)
    }
    func receive(_ input: Upstream.Output) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
    func request(_ demand: Subscribers.Demand) {
      log.append("request:\(onQueue)")
      upstream?.request(demand)
    }
    func cancel() {
      log.append("cancel:\(onQueue)")
      upstream?.cancel()
    }
  }
}
