import CombineEx
import Foundation
import Synchronization

/// Runs `body(index)` on `count` threads of their own, released together so that they truly
/// race, and returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
  let gate = StartGate(count: count)
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    let group = DispatchGroup()
    for index in 0..<count {
      group.enter()
      let thread = Thread {
        gate.arriveAndWait()
        body(index)
        group.leave()
      }
      thread.start()
    }
    group.notify(queue: .global()) { continuation.resume() }
  }
}

/// Holds threads until all have arrived, so that their work overlaps.
final class StartGate: Sendable {
  private let arrived = Atomic<Int>(0)
  private let count: Int

  init(count: Int) { self.count = count }

  func arriveAndWait() {
    arrived.add(1, ordering: .acquiringAndReleasing)
    while arrived.load(ordering: .acquiring) < count { sched_yield() }
  }
}

/// A subscriber for stress tests: records values and completions from any thread, and counts
/// what breaks the rules under concurrency: two deliveries at once, deliveries after its
/// `cancel()` returned beyond the one that may already have been on its way, values beyond the
/// demand it granted, a second completion.
final class StressRecorder<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: every mutable property is guarded by `lock`.
  private let lock = NSLockBox()
  private var subscription: (any Subscription)?
  private var recorded: [Input] = []
  private var completions = 0
  private var inside = 0
  private var overlaps = 0
  private var cancelled = false
  private var cancelRequested = false
  private var afterCancel = 0
  private var afterCompletion = 0
  private var granted: Subscribers.Demand
  private let demandPerValue: Subscribers.Demand
  private let initialDemand: Subscribers.Demand

  init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
    self.initialDemand = initialDemand
    self.demandPerValue = demandPerValue
    granted = initialDemand
  }

  var values: [Input] { lock.withLock { recorded } }
  var completionCount: Int { lock.withLock { completions } }
  var overlappingDeliveries: Int { lock.withLock { overlaps } }
  /// Values and completions that arrived after `cancel()` returned.
  var eventsAfterCancel: Int { lock.withLock { afterCancel } }
  /// Values that arrived after the completion.
  var valuesAfterCompletion: Int { lock.withLock { afterCompletion } }
  /// Whether `cancel()` was called (and returned).
  var isCancelled: Bool { lock.withLock { cancelled } }
  /// Whether more values arrived than were requested.
  var exceededDemand: Bool { lock.withLock { granted < recorded.count } }

  func receive(subscription: any Subscription) {
    // Like a Sink: a subscription that arrives after `cancel()` (a subject may hand it over
    // from its delivering thread, after `subscribe` returned) is cancelled at once.
    let accepted = lock.withLock { () -> Bool in
      guard !cancelRequested else { return false }
      self.subscription = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock {
      inside += 1
      if inside > 1 { overlaps += 1 }
      recorded.append(input)
      if cancelled { afterCancel += 1 }
      if completions > 0 { afterCompletion += 1 }
      granted += demandPerValue
    }
    // Stay "inside" a little, so that an overlapping delivery has a chance to be seen.
    for _ in 0..<3 { _ = lock.withLock { inside } }
    lock.withLock { inside -= 1 }
    return demandPerValue
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      completions += 1
      if cancelled { afterCancel += 1 }
      subscription = nil
    }
  }

  func request(_ demand: Subscribers.Demand) {
    let target = lock.withLock { () -> (any Subscription)? in
      granted += demand
      return subscription
    }
    target?.request(demand)
  }

  func cancel() {
    let target = lock.withLock { () -> (any Subscription)? in
      cancelRequested = true
      defer { subscription = nil }
      return subscription
    }
    target?.cancel()
    lock.withLock { cancelled = true }
  }
}

/// What the values a subscriber received say about the sends of several threads, each of which
/// sent `thread * stride + index` for increasing `index`.
struct ThreadedValues {
  let values: [Int]
  let stride: Int

  /// Whether some value arrived twice.
  var hasDuplicates: Bool { Set(values).count != values.count }

  /// Whether each thread's values arrived in the order the thread sent them.
  var keepsEachThreadsOrder: Bool {
    var last: [Int: Int] = [:]
    for value in values {
      let thread = value / stride
      if let previous = last[thread], previous >= value { return false }
      last[thread] = value
    }
    return true
  }
}

/// A counter shared between threads.
final class AtomicCounter: Sendable {
  private let count = Atomic<Int>(0)

  var value: Int { count.load(ordering: .acquiring) }

  /// Adds one; returns the new value.
  @discardableResult
  func increment() -> Int { count.add(1, ordering: .acquiringAndReleasing).newValue }
}
