/// What a reducing operator does with one upstream element (see ``ReducingLogic``).
@usableFromInline
enum ReducingStep<Failure: Error> {
  /// Keep going.
  case `continue`
  /// The result is known: cancel the upstream and publish it (`contains`, `allSatisfy`).
  case finish
  /// Fail with this error (and cancel the upstream).
  case fail(Failure)
}

/// The pure part of an operator that consumes the whole upstream and publishes at most one
/// value at the end (`reduce`, `count`, `collect()`, `min`, `contains`, `last`, ...).
///
/// `receive` is only ever called serially, so the logic keeps its accumulator in `mutating`
/// methods without locks.
@usableFromInline
protocol ReducingLogic {
  associatedtype Input
  associatedtype Output
  associatedtype UpstreamFailure: Error
  associatedtype Failure: Error

  /// A short name for `description` (`"Reduce"`, `"Count"`, ...).
  var name: String { get }

  /// Folds one upstream element in.
  mutating func receive(_ input: Input) -> ReducingStep<Failure>

  /// The value to publish when the operator finishes (`nil` publishes nothing).
  var result: Output? { get }

  /// Converts the upstream's failure into the operator's.
  func convert(_ failure: UpstreamFailure) -> Failure
}

extension ReducingLogic where UpstreamFailure == Failure {
  @usableFromInline
  func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

/// The subscription of reducing operators. It requests unlimited elements from the upstream
/// (the downstream's demand only governs the one final value), folds them with the
/// ``ReducingLogic``, and when the upstream finishes (or the logic decides early) publishes the
/// result as soon as the downstream has demand, followed by `.finished`. A failure is passed on
/// at once. Like ``ElementOperator``, it never holds its lock while calling out.
// @unchecked Sendable: `status`, `downstream`, `hasDemand`, `pending` and `cancelled` are guarded
// by `lock`; `logic` is touched only by upstream events, which are serial.
@usableFromInline
final class ReducingOperator<Logic: ReducingLogic, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where
  Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure
{
  @usableFromInline
  typealias Input = Logic.Input
  @usableFromInline
  typealias Failure = Logic.UpstreamFailure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var downstream: Downstream?
  private var logic: Logic
  /// Whether the downstream has requested anything yet.
  private var hasDemand = false
  /// The result, computed but waiting for the downstream's demand.
  private var pending: Logic.Output?
  /// Whether the downstream cancelled: checked after the result is delivered, because a
  /// cancel from inside `receive(_:)` must keep the completion from being sent.
  private var cancelled = false

  @usableFromInline
  init(logic: Logic, downstream: Downstream) {
    self.logic = logic
    self.downstream = downstream
  }

  @usableFromInline
  var description: String { logic.name }

  // MARK: Subscriber (upstream side)

  @usableFromInline
  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status else { return nil }
      status = .subscribed(subscription)
      return self.downstream
    }
    guard let downstream else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
    subscription.request(.unlimited)
  }

  @usableFromInline
  func receive(_ input: Logic.Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed }) else { return .none }
    switch logic.receive(input) {
    case .continue:
      break
    case .finish:
      let upstream = lock.withLock { () -> (any Subscription)? in
        guard case .subscribed(let upstream) = status else { return nil }
        status = .terminated
        return upstream
      }
      upstream?.cancel()
      publishResult()
    case .fail(let error):
      let (upstream, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
        guard case .subscribed(let upstream) = status else { return (nil, nil) }
        status = .terminated
        defer { self.downstream = nil }
        return (upstream, self.downstream)
      }
      upstream?.cancel()
      downstream?.receive(completion: .failure(error))
    }
    return .none
  }

  @usableFromInline
  func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
    switch completion {
    case .finished:
      let wasLive = lock.withLock { () -> Bool in
        guard status.isSubscribed else { return false }
        status = .terminated
        return true
      }
      if wasLive { publishResult() }
    case .failure(let error):
      let downstream = lock.withLock { () -> Downstream? in
        guard status.isSubscribed else { return nil }
        status = .terminated
        defer { self.downstream = nil }
        return self.downstream
      }
      downstream?.receive(completion: .failure(logic.convert(error)))
    }
  }

  /// Publishes the result now if the downstream has asked for it, or keeps it for `request`.
  private func publishResult() {
    let result = logic.result
    let downstream = lock.withLock { () -> Downstream? in
      if result != nil, !hasDemand {
        pending = result
        return nil
      }
      defer { self.downstream = nil }
      return self.downstream
    }
    guard let downstream else { return }
    deliver(result, to: downstream)
  }

  /// Sends the result (if any), then `.finished` unless the downstream cancelled meanwhile.
  private func deliver(_ result: Logic.Output?, to downstream: Downstream) {
    if let result {
      _ = downstream.receive(result)
      if lock.withLock({ cancelled }) { return }
    }
    downstream.receive(completion: .finished)
  }

  // MARK: Subscription (downstream side)

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    let (result, downstream) = lock.withLock { () -> (Logic.Output?, Downstream?) in
      hasDemand = true
      guard let pending else { return (nil, nil) }
      self.pending = nil
      defer { self.downstream = nil }
      return (pending, self.downstream)
    }
    guard let result, let downstream else { return }
    deliver(result, to: downstream)
  }

  @usableFromInline
  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        status = .terminated
        downstream = nil
        pending = nil
        cancelled = true
      }
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.cancel()
  }
}
