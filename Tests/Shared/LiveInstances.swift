import CombineExCore
import Foundation
import Synchronization

/// Counts the live instances of ``Counted``. A test of rule 3 (a value already delivered,
/// dropped or evicted is released at once) sends them through a pipeline and checks how many
/// are still alive: a queue that keeps what it delivered shows up as a count that grows with
/// the number of values.
final class InstanceCounter: Sendable {
  fileprivate let live = Atomic<Int>(0)

  /// How many instances made by this counter are alive.
  var alive: Int { live.load(ordering: .acquiring) }

  /// A new instance carrying `value`.
  func make(_ value: Int) -> Counted { Counted(value, counter: self) }
}

/// A value whose live instances an ``InstanceCounter`` counts.
final class Counted: Sendable, CustomStringConvertible {
  let value: Int
  private let counter: InstanceCounter

  fileprivate init(_ value: Int, counter: InstanceCounter) {
    self.value = value
    self.counter = counter
    counter.live.add(1, ordering: .acquiringAndReleasing)
  }

  deinit { counter.live.subtract(1, ordering: .acquiringAndReleasing) }

  var description: String { "Counted(\(value))" }
}

/// A subscriber that asks for values only when the test says so and keeps none of them (it
/// counts them), so that a test can count what the pipeline itself keeps alive.
final class CountingSubscriber<Input, Failure: Error>: Subscriber, Cancellable,
  @unchecked Sendable
{
  // @unchecked Sendable: every mutable property is guarded by `lock`; `onValue` is immutable.
  private let lock = NSLock()
  private var subscription: (any Subscription)?
  private var received = 0
  private var ended = false
  private let initialDemand: Subscribers.Demand
  private let onValue: (Input) -> Void

  /// - Parameters:
  ///   - initialDemand: requested as soon as the subscription arrives.
  ///   - onValue: called with each value, inside `receive(_:)` (it must not keep the value).
  init(initialDemand: Subscribers.Demand, onValue: @escaping (Input) -> Void = { _ in }) {
    self.initialDemand = initialDemand
    self.onValue = onValue
  }

  /// How many values arrived.
  var count: Int { lock.withLock { received } }

  /// Whether the completion arrived.
  var isComplete: Bool { lock.withLock { ended } }

  func receive(subscription: any Subscription) {
    lock.withLock { self.subscription = subscription }
    if initialDemand > .none { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { received += 1 }
    onValue(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      ended = true
      subscription = nil
    }
  }

  /// Asks the subscription for `demand` more values.
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { subscription }?.request(demand)
  }

  func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      defer { self.subscription = nil }
      return self.subscription
    }
    subscription?.cancel()
  }
}
