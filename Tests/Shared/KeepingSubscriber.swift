// Shared by every test target: each target's Support folder links to this file.
import CombineExCore
import Foundation

/// A subscriber that keeps its subscription, asks for `initialDemand` values when it gets it,
/// and logs what it receives ("0", "1", "finished"). Other threads may call ``request(_:)``
/// once it is subscribed (the race tests hand it over to them after subscribing it).
final class KeepingSubscriber<Input: CustomStringConvertible>: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: `box` is locked; `subscription` is written once, in
  // `receive(subscription:)`, before the subscriber is handed to other threads.
  typealias Failure = Never

  private let initialDemand: Subscribers.Demand
  private let box = LockedBox<[String]>([])
  private var subscription: (any Subscription)?

  init(initialDemand: Subscribers.Demand) {
    self.initialDemand = initialDemand
  }

  /// What the subscriber has received so far.
  var log: [String] { box.withLock { $0 } }

  /// Asks its subscription for `demand` more values.
  func request(_ demand: Subscribers.Demand) {
    subscription?.request(demand)
  }

  /// Cancels its subscription (which it keeps: a test can check what the subscription
  /// releases while still referenced).
  func cancel() {
    subscription?.cancel()
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    if initialDemand > .none { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    box.withLock { $0.append(input.description) }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    box.withLock { $0.append("finished") }
  }
}
