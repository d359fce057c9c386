import CombineExCore
import Foundation

/// The subject most combining tests use.
typealias IntSubject = PassthroughSubject<Int, Never>

/// Turns recorded pairs into arrays, which are `Equatable`, so that tests can compare them.
func pairs<A, B>(_ values: [(A, B)]) -> [[String]] {
  values.map { ["\($0.0)", "\($0.1)"] }
}

/// A counter shared by the threads of a test.
final class Counter: @unchecked Sendable {
  // @unchecked Sendable: `count` is only touched under `lock`.
  private let lock = NSLock()
  private var count = 0

  /// The current count.
  var value: Int { lock.withLock { count } }

  /// Adds one; returns the new count.
  @discardableResult
  func increment() -> Int {
    lock.withLock {
      count += 1; return count
    }
  }
}

/// A subscriber for stress tests that records every event *in order*, from any thread, and
/// counts overlapping deliveries: a completion delivered while a value is being received (or
/// two values at once) is an overlap. Also notes whether anything arrived after a completion.
final class OrderedStressSubscriber<Input: Sendable, Failure: Error>: Subscriber,
  @unchecked Sendable
{
  // @unchecked Sendable: every stored property is guarded by `lock`.
  enum Event {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  private let lock = NSLock()
  private var recorded: [Event] = []
  private var inside = 0
  private var overlapCount = 0
  private var subscription: (any Subscription)?
  private let initialDemand: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private let onValue: (@Sendable (Input) -> Void)?

  init(
    initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none,
    onValue: (@Sendable (Input) -> Void)? = nil
  ) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
    self.onValue = onValue
  }

  /// Everything received, in order.
  var events: [Event] { lock.withLock { recorded } }

  /// The values received, in order.
  var values: [Input] {
    events.compactMap { if case .value(let value) = $0 { return value } else { return nil } }
  }

  /// How many completions arrived.
  var completions: Int {
    events.filter { if case .completion = $0 { return true } else { return false } }.count
  }

  /// Whether a value arrived after a completion.
  var valueAfterCompletion: Bool {
    var completed = false
    for event in events {
      switch event {
      case .completion: completed = true
      case .value: if completed { return true }
      }
    }
    return false
  }

  /// How many deliveries overlapped another.
  var overlaps: Int { lock.withLock { overlapCount } }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { subscription }?.request(demand)
  }

  func cancel() {
    lock.withLock { subscription }?.cancel()
  }

  func receive(subscription: any Subscription) {
    lock.withLock { self.subscription = subscription }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    enter()
    lock.withLock { recorded.append(.value(input)) }
    onValue?(input)
    leave()
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    enter()
    lock.withLock {
      recorded.append(.completion(completion))
      subscription = nil
    }
    leave()
  }

  private func enter() {
    lock.withLock {
      inside += 1
      if inside > 1 { overlapCount += 1 }
    }
    // Widen the window in which an overlapping delivery would be seen.
    sched_yield()
  }

  private func leave() {
    lock.withLock { inside -= 1 }
  }
}
