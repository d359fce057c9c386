/// What an element-wise operator does with one upstream element (see ``ElementLogic``).
@usableFromInline
package enum ElementStep<Output, Failure: Error> {
  /// Send this value downstream.
  case emit(Output)
  /// Send nothing; the element's unit of demand goes back upstream.
  case skip
  /// Send this value, then finish (and cancel the upstream).
  case emitAndFinish(Output)
  /// Finish without a value (and cancel the upstream).
  case finish
  /// Fail with this error (and cancel the upstream).
  case fail(Failure)
}

/// The pure part of an element-wise operator: how it turns each upstream element into an
/// ``ElementStep``, and the upstream's completion into its own. A value type, so that every
/// operator's logic can be read (and tested) on its own; ``ElementOperator`` does the rest.
///
/// `receive` is only ever called serially (upstream elements arrive one at a time), so the
/// logic may keep state in `mutating` methods without locks.
@usableFromInline
package protocol ElementLogic {
  associatedtype Input
  associatedtype Output
  associatedtype UpstreamFailure: Error
  associatedtype Failure: Error

  /// A short name for `description` (`"TryMap"`, `"RemoveDuplicates"`, ...).
  var name: String { get }

  /// Decides what to do with one upstream element.
  mutating func receive(_ input: Input) -> ElementStep<Output, Failure>

  /// Converts the upstream's failure into the operator's.
  func convert(_ failure: UpstreamFailure) -> Failure
}

extension ElementLogic where UpstreamFailure == Failure {
  @usableFromInline
  package func convert(_ failure: UpstreamFailure) -> Failure { failure }
}

/// The subscription of element-wise operators that may end early or fail (`tryMap`,
/// `removeDuplicates`, `prefix(while:)`, `first(where:)`, ...): it sits between the upstream
/// and the downstream, passes demand straight through, runs the ``ElementLogic`` on each
/// element and enforces the rules:
/// - one completion at most, and nothing after it or after `cancel`;
/// - ending early (finish or failure) cancels the upstream first;
/// - a cancel releases the downstream and the upstream subscription;
/// - no lock is held while calling the logic, the downstream or the upstream.
// @unchecked Sendable: `status`, `downstream` and `cancelledByDownstream` are guarded by `lock`;
// `logic` is touched only by upstream events, which are serial.
@usableFromInline
package final class ElementOperator<Logic: ElementLogic, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where
  Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure
{
  @usableFromInline
  package typealias Input = Logic.Input
  @usableFromInline
  package typealias Failure = Logic.UpstreamFailure

  private let lock = Lock()
  private var status = OperatorStatus.awaitingSubscription
  private var downstream: Downstream?
  private var logic: Logic
  /// Whether the downstream cancelled, even after the operator ended: checked after the last
  /// value of `.emitAndFinish`, so that a cancel from inside `receive(_:)` keeps the
  /// completion from being sent.
  private var cancelledByDownstream = false

  @usableFromInline
  package init(logic: Logic, downstream: Downstream) {
    self.logic = logic
    self.downstream = downstream
  }

  @usableFromInline
  package var description: String { logic.name }

  // MARK: Subscriber (upstream side)

  @usableFromInline
  package func receive(subscription: any Subscription) {
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
  }

  @usableFromInline
  package func receive(_ input: Logic.Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ status.isSubscribed ? self.downstream : nil }) else {
      return .none
    }
    switch logic.receive(input) {
    case .emit(let output):
      return downstream.receive(output)
    case .skip:
      return .max(1)
    case .emitAndFinish(let output):
      // The operator is done once this value is out: it lets go of the upstream first, so
      // that a request the downstream makes from inside `receive(_:)` cannot reach the
      // upstream and bring back its own completion (or more values) in place of `.finished`.
      let (upstream, last) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
        guard case .subscribed(let upstream) = status else { return (nil, nil) }
        status = .terminated
        defer { self.downstream = nil }
        return (upstream, self.downstream)
      }
      upstream?.cancel()
      guard let last else { return .none }
      _ = last.receive(output)
      if !lock.withLock({ cancelledByDownstream }) { last.receive(completion: .finished) }
      return .none
    case .finish:
      end(with: .finished)
      return .none
    case .fail(let error):
      end(with: .failure(error))
      return .none
    }
  }

  @usableFromInline
  package func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminated
      defer { self.downstream = nil }
      return self.downstream
    }
    downstream?.receive(completion: completion.mapFailure(logic.convert))
  }

  /// Ends early: cancels the upstream, then completes the downstream (once).
  private func end(with completion: Subscribers.Completion<Logic.Failure>) {
    let (upstream, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard case .subscribed(let upstream) = status else { return (nil, nil) }
      status = .terminated
      defer { self.downstream = nil }
      return (upstream, self.downstream)
    }
    upstream?.cancel()
    downstream?.receive(completion: completion)
  }

  // MARK: Subscription (downstream side)

  @usableFromInline
  package func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard case .subscribed(let upstream) = status else { return nil }
      return upstream
    }
    upstream?.request(demand)
  }

  @usableFromInline
  package func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      cancelledByDownstream = true
      guard case .subscribed(let upstream) = status else { return nil }
      status = .terminated
      downstream = nil
      return upstream
    }
    upstream?.cancel()
  }
}

/// The life of an operator's subscription, shared by the operator base classes.
@usableFromInline
enum OperatorStatus {
  /// Created, waiting for the upstream's subscription.
  case awaitingSubscription
  /// Connected to the upstream.
  case subscribed(any Subscription)
  /// Completed, failed or cancelled: nothing more happens.
  case terminated

  @usableFromInline
  var isSubscribed: Bool {
    if case .subscribed = self { return true }
    return false
  }

  /// The upstream subscription, while connected.
  @inlinable
  var upstream: (any Subscription)? {
    if case .subscribed(let upstream) = self { return upstream }
    return nil
  }

  /// Connects to `subscription` if none arrived yet; returns whether it did (a second
  /// subscription must be cancelled by the caller, outside its lock).
  @inlinable
  mutating func accept(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = self else { return false }
    self = .subscribed(subscription)
    return true
  }

  /// Ends the status; returns the upstream subscription it held, if any, for the caller to
  /// cancel outside its lock.
  @inlinable
  mutating func terminate() -> (any Subscription)? {
    defer { self = .terminated }
    return upstream
  }
}
