import CombineExCore
import CombineExTesting
import Foundation
import Testing

/// An upstream under the test's full control: it records every demand its subscriber requests
/// and every cancel, and `send` hands a value straight to the subscriber (whatever the demand)
/// and returns the demand the subscriber answers with. Single-threaded tests only.
final class ManualUpstream<Output, Failure: Error>: Publisher {
  private var subscriber: AnySubscriber<Output, Failure>?

  /// Every demand requested through the subscription, in order.
  private(set) var requests: [Subscribers.Demand] = []

  /// How many times the subscription was cancelled.
  private(set) var cancelCount = 0

  /// The sum of all requested demand.
  var totalDemand: Subscribers.Demand { requests.reduce(.none, +) }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    self.subscriber = AnySubscriber(subscriber)
    subscriber.receive(subscription: Probe(owner: self))
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
    weak var owner: ManualUpstream?
    init(owner: ManualUpstream) { self.owner = owner }
    func request(_ demand: Subscribers.Demand) { owner?.requests.append(demand) }
    func cancel() {
      owner?.cancelCount += 1
      owner?.subscriber = nil
    }
  }
}

/// Checks the cancellation rules for the operator `makePipeline` applies to an upstream of
/// `Int`s: cancel reaches the upstream, nothing is delivered after it, and the downstream (and
/// what it captures) is released.
func expectCancellationRules<P: Publisher>(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ makePipeline: (AnyPublisher<Int, TestError>) -> P
) {
  let subject = PassthroughSubject<Int, TestError>()
  var upstreamCancelled = false
  let pipeline = makePipeline(
    subject.handleCancelForTest { upstreamCancelled = true }.eraseToAnyPublisher())

  // Nothing after cancel.
  let recorder = pipeline.record()
  subject.send(1)
  let eventsBeforeCancel = recorder.events.count
  recorder.cancel()
  #expect(upstreamCancelled, "cancel did not reach the upstream", sourceLocation: sourceLocation)
  subject.send(2)
  subject.send(completion: .finished)
  #expect(
    recorder.events.count == eventsBeforeCancel, "events arrived after cancel",
    sourceLocation: sourceLocation)

  // The downstream is released.
  let liveSubject = PassthroughSubject<Int, TestError>()
  weak var weakOwner: TestOwner?
  var cancellable: AnyCancellable?
  do {
    let owner = TestOwner()
    weakOwner = owner
    cancellable = makePipeline(liveSubject.eraseToAnyPublisher()).sink(
      receiveCompletion: { _ in owner.values.append(-1) },
      receiveValue: { _ in owner.values.append(0) })
  }
  #expect(weakOwner != nil, sourceLocation: sourceLocation)
  cancellable?.cancel()
  #expect(weakOwner == nil, "the downstream was not released", sourceLocation: sourceLocation)
  withExtendedLifetime(cancellable) {}
}

/// A subscriber driven by closures, for re-entrancy tests: `onValue` may call ``request(_:)``
/// or ``cancel()`` on the subscriber it is given. Single-threaded tests only.
final class CallbackSubscriber<Input, Failure: Error>: Subscriber, Cancellable {
  private var subscription: (any Subscription)?
  private let initialDemand: Subscribers.Demand
  private let onValue: (Input, CallbackSubscriber) -> Subscribers.Demand

  /// The values received, in order.
  private(set) var values: [Input] = []

  /// The completions received (more than one is a broken publisher).
  private(set) var completions: [Subscribers.Completion<Failure>] = []

  init(
    initialDemand: Subscribers.Demand,
    onValue: @escaping (Input, CallbackSubscriber) -> Subscribers.Demand = { _, _ in .none }
  ) {
    self.initialDemand = initialDemand
    self.onValue = onValue
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    values.append(input)
    return onValue(input, self)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    completions.append(completion)
  }

  /// Requests more from the subscription.
  func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }

  /// Cancels the subscription.
  func cancel() { subscription?.cancel() }
}

/// A subscriber for stress tests that any thread may drive: it records the values, counts
/// overlapping deliveries (which would break the serial-delivery rule), and lets any thread
/// request or cancel.
final class ConcurrentRecorder<Input: Sendable>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`.
  typealias Failure = Never

  private let lock = NSLock()
  private var subscription: (any Subscription)?
  private var received: [Input] = []
  private var inside = 0
  private var overlapCount = 0
  private var completionCount = 0
  private let initialDemand: Subscribers.Demand

  init(initialDemand: Subscribers.Demand) {
    self.initialDemand = initialDemand
  }

  /// The values received so far, in order.
  var values: [Input] { lock.withLock { received } }

  /// How many deliveries overlapped another one.
  var overlaps: Int { lock.withLock { overlapCount } }

  /// How many completions arrived.
  var completions: Int { lock.withLock { completionCount } }

  func receive(subscription: any Subscription) {
    lock.withLock { self.subscription = subscription }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock {
      inside += 1
      if inside > 1 { overlapCount += 1 }
    }
    lock.withLock {
      received.append(input)
      inside -= 1
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    lock.withLock { completionCount += 1 }
  }

  /// Requests more from the subscription.
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { subscription }?.request(demand)
  }

  /// Cancels the subscription.
  func cancel() {
    lock.withLock { subscription }?.cancel()
  }
}
