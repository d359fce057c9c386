import CombineExCore

/// The source of every ``DeferredFuture``: a cold publisher that starts its work for each
/// subscription and publishes the first result the work reports through its promise.
struct FutureWork<Output, Failure: Error>: Publisher {
  /// Starts the work of one subscription with its promise, and returns how to cancel that
  /// work, or `nil` if it cannot be cancelled.
  let start: (@escaping Future<Output, Failure>.Promise) -> (@Sendable () -> Void)?

  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let subscription = FutureWorkSubscription(downstream: subscriber)
    subscriber.receive(subscription: subscription)
    subscription.start(start)
  }
}

/// What a running piece of work reports its result to, seen without the subscriber's type (so
/// that the promise, which may be sent anywhere, captures only `Sendable` types).
private class FutureResultReceiver<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: stateless; the subclass guards its state with a lock.
  /// Receives the work's result; only the first call counts.
  func fulfill(_ result: Result<Output, Failure>) {}
}

/// The subscription of ``FutureWork``.
///
/// It delivers when it has both the result and, for a value, demand, and never before
/// `receive(subscription:)` has returned and the work has been started (``start(_:)``).
private final class FutureWorkSubscription<Downstream: Subscriber>: FutureResultReceiver<
  Downstream.Input, Downstream.Failure
>, Subscription, CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: every mutable property is guarded by `lock`.
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  private enum Phase {
    /// The subscriber is receiving its subscription, or the work is being started: nothing
    /// is delivered yet.
    case starting
    /// Started: deliver as soon as the result (and, for a value, demand) is there.
    case live
    /// Sending the value: a cancel now only moves to `done`, which keeps `.finished` from
    /// being sent after it (rule 2, even for a cancel made inside `receive(_:)`).
    case delivering
    /// Delivered or cancelled.
    case done
  }

  private let lock = Lock()
  private var phase = Phase.starting
  private var hasDemand = false
  private var result: Result<Output, Failure>?
  private var downstream: Downstream?
  /// Cancels the running work, until the result is delivered.
  private var cancelWork: (@Sendable () -> Void)?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "DeferredFuture" }

  /// Starts the work (unless the subscriber already cancelled), then delivers if the result
  /// and demand arrived meanwhile.
  func start(
    _ work: (@escaping Future<Output, Failure>.Promise) -> (@Sendable () -> Void)?
  ) {
    guard lock.withLock({ phase == .starting }) else { return }
    let receiver: FutureResultReceiver<Output, Failure> = self
    let cancelWork = work { result in receiver.fulfill(result) }
    let (delivery, cancelNow) = lock.withLock {
      () -> ((Downstream, Result<Output, Failure>)?, (@Sendable () -> Void)?) in
      guard phase == .starting else { return (nil, cancelWork) }
      phase = .live
      self.cancelWork = cancelWork
      return (takeDeliveryIfReady(), nil)
    }
    // Cancelled from another thread while the work was being started.
    cancelNow?()
    deliver(delivery)
  }

  /// The promise: keeps the first result and delivers it when possible.
  override func fulfill(_ result: Result<Output, Failure>) {
    let delivery = lock.withLock { () -> (Downstream, Result<Output, Failure>)? in
      guard phase == .starting || phase == .live, self.result == nil else { return nil }
      self.result = result
      return takeDeliveryIfReady()
    }
    deliver(delivery)
  }

  func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    let delivery = lock.withLock { () -> (Downstream, Result<Output, Failure>)? in
      guard phase != .done else { return nil }
      hasDemand = true
      return takeDeliveryIfReady()
    }
    deliver(delivery)
  }

  func cancel() {
    let (released, cancelWork) = lock.withLock {
      () -> (Downstream?, (@Sendable () -> Void)?) in
      guard phase != .done else { return (nil, nil) }
      if phase == .delivering {
        // The delivering thread owns the rest; it sees `done` and sends no completion.
        phase = .done
        return (nil, nil)
      }
      phase = .done
      result = nil
      defer {
        downstream = nil
        self.cancelWork = nil
      }
      return (downstream, self.cancelWork)
    }
    _ = released  // Released outside the lock.
    cancelWork?()
  }

  /// Under `lock`: if everything needed to deliver is there, ends the subscription and returns
  /// what to deliver.
  private func takeDeliveryIfReady() -> (Downstream, Result<Output, Failure>)? {
    guard phase == .live, let result, let downstream else { return nil }
    if case .success = result, !hasDemand { return nil }
    phase = .delivering
    self.result = nil
    self.downstream = nil
    cancelWork = nil
    return (downstream, result)
  }

  private func deliver(_ delivery: (Downstream, Result<Output, Failure>)?) {
    guard let (downstream, result) = delivery else { return }
    switch result {
    case .success(let value):
      _ = downstream.receive(value)
      let finish = lock.withLock { () -> Bool in
        defer { phase = .done }
        return phase == .delivering
      }
      if finish { downstream.receive(completion: .finished) }
    case .failure(let error):
      lock.withLock { phase = .done }
      downstream.receive(completion: .failure(error))
    }
  }
}
