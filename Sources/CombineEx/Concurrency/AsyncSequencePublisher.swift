import CombineExCore

extension AsyncSequence where Self: Sendable {
  /// A cold publisher of this sequence's elements: each subscription iterates the sequence in
  /// a task of its own, pulling an element only when the subscriber has demand.
  ///
  /// ```swift
  /// let numbers = AsyncStream<Int> { continuation in
  ///   for number in 1...3 { continuation.yield(number) }
  ///   continuation.finish()
  /// }
  /// let cancellable = numbers.publisher.sink { print($0) }
  /// // Prints: 1, 2, 3 — from the subscription's task
  /// ```
  ///
  /// Combine has no such property (CombineEx adds it). The publisher is a ``ColdPublisher``, so
  /// a chain of operators on it can be erased to an ``AnyDeferredPublisher``. See
  /// ``AsyncSequencePublisher`` for demand, failure and cancellation.
  public var publisher: AsyncSequencePublisher<Self> {
    AsyncSequencePublisher(self)
  }
}

/// A publisher that iterates an asynchronous sequence and publishes its elements.
///
/// The publisher is *cold*: every subscription makes its own iterator, in its own `Task`, so
/// two subscribers each see the whole sequence (as far as the sequence allows several
/// iterations: an `AsyncStream` can only be iterated once).
///
/// - Demand: the task asks the iterator for the next element only while the subscriber has
///   unmet demand, and otherwise waits; it never reads ahead. The completion after the last
///   element therefore comes when the subscriber asks for one more element and the iterator
///   returns `nil` (a subscriber with unlimited demand sees it at once).
/// - Failure: the publisher's `Failure` is the sequence's: `Never` for a sequence that cannot
///   throw (`AsyncStream`), `any Error` for one that throws (`AsyncThrowingStream`, most
///   sequences that predate typed throws). A thrown error fails the publisher.
/// - Cancellation: cancelling the subscription cancels the task (the iterator's `next()` sees
///   `Task.isCancelled`) and releases the subscriber at once; nothing is delivered afterwards.
/// - Threading: values and the completion are delivered from the task, one at a time.
///
/// The sequence must be `Sendable` because each subscription's task iterates it.
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
  /// The kind of values published by this publisher: the sequence's elements.
  public typealias Output = Base.Element

  /// The kind of errors this publisher might publish: the sequence's thrown error type.
  public typealias Failure = Base.Failure

  /// The asynchronous sequence that each subscription iterates.
  public let base: Base

  /// Creates a publisher of the elements of `base`.
  public init(_ base: Base) {
    self.base = base
  }

  /// Attaches the subscriber and starts the task that iterates the sequence for it.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    let subscription = AsyncSequenceSubscription<Base, S>(downstream: subscriber)
    subscriber.receive(subscription: subscription)
    subscription.start(iterating: base)
  }
}

extension AsyncSequencePublisher: Sendable {}

// Every subscription iterates the sequence in a task of its own.
extension AsyncSequencePublisher: ColdPublisher {}

/// The iteration behind an ``AsyncSequencePublisher`` subscription: a task that pulls an
/// element per unit of demand and hands it to ``deliver(_:)``.
///
/// It knows nothing of the subscriber's type, so that the task it starts captures only
/// `Sendable` types; ``AsyncSequenceSubscription`` adds the subscriber.
private class AsyncSequenceIteration<Base: AsyncSequence & Sendable>: @unchecked Sendable {
  // @unchecked Sendable: the mutable properties (and the subclass's) are guarded by `lock`.
  let lock = Lock()
  /// Unmet demand.
  private var demand = Subscribers.Demand.none
  /// The task, parked until demand arrives (`true`) or the subscription ends (`false`).
  private var demandWaiter: CheckedContinuation<Bool, Never>?
  private var task: Task<Void, Never>?
  /// Completed or cancelled: nothing more is delivered.
  var isDone = false

  /// Starts the task, unless the subscriber cancelled during `receive(subscription:)`.
  final func start(iterating base: Base) {
    guard !lock.withLock({ isDone }) else { return }
    let task = Task { await self.run(base) }
    let cancelled = lock.withLock { () -> Bool in
      if !isDone { self.task = task }
      return isDone
    }
    if cancelled { task.cancel() }
  }

  private func run(_ base: Base) async {
    var iterator = base.makeAsyncIterator()
    while await waitForDemand() {
      let element: Base.Element?
      do throws(Base.Failure) {
        element = try await iterator.next(isolation: nil)
      } catch {
        finish(.failure(error))
        return
      }
      guard let element else {
        finish(.finished)
        return
      }
      guard let more = deliver(element) else { return }
      if more > .none { add(more) }
    }
  }

  /// Hands `element` to the subscriber and returns the demand it adds; `nil` if the
  /// subscription has ended.
  func deliver(_ element: Base.Element) -> Subscribers.Demand? {
    preconditionFailure("abstract")
  }

  /// Hands the completion to the subscriber and releases it (called once, after `isDone`
  /// was set).
  func deliver(completion: Subscribers.Completion<Base.Failure>) {
    preconditionFailure("abstract")
  }

  /// Releases the subscriber (called once, after `isDone` was set by a cancel).
  func releaseDownstream() {
    preconditionFailure("abstract")
  }

  /// Takes one unit of demand, waiting for it if there is none; `false` once the
  /// subscription has ended.
  private func waitForDemand() async -> Bool {
    await withCheckedContinuation { continuation in
      let ready = lock.withLock { () -> Bool? in
        if isDone { return false }
        guard demand > .none else {
          demandWaiter = continuation
          return nil
        }
        demand -= 1
        return true
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  private func finish(_ completion: Subscribers.Completion<Base.Failure>) {
    let finishing = lock.withLock { () -> Bool in
      guard !isDone else { return false }
      isDone = true
      task = nil
      return true
    }
    if finishing { deliver(completion: completion) }
  }

  /// Adds demand, waking the task if it waits for it.
  private func add(_ more: Subscribers.Demand) {
    let waiter = lock.withLock { () -> CheckedContinuation<Bool, Never>? in
      guard !isDone else { return nil }
      demand += more
      guard let waiter = demandWaiter else { return nil }
      demandWaiter = nil
      demand -= 1
      return waiter
    }
    waiter?.resume(returning: true)
  }

  final func request(_ demand: Subscribers.Demand) {
    guard demand > .none else { return }
    add(demand)
  }

  final func cancel() {
    let (cancelling, task, waiter) = lock.withLock {
      () -> (Bool, Task<Void, Never>?, CheckedContinuation<Bool, Never>?) in
      guard !isDone else { return (false, nil, nil) }
      isDone = true
      defer {
        self.task = nil
        demandWaiter = nil
      }
      return (true, self.task, demandWaiter)
    }
    guard cancelling else { return }
    releaseDownstream()
    task?.cancel()
    waiter?.resume(returning: false)
  }
}

/// The subscription of ``AsyncSequencePublisher``: the iteration, delivering to `Downstream`.
private final class AsyncSequenceSubscription<
  Base: AsyncSequence & Sendable, Downstream: Subscriber
>: AsyncSequenceIteration<Base>, Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
  // @unchecked Sendable: `downstream` is guarded by `lock`, and called only from the task, one
  // call at a time.
  /// Released on completion and on cancel.
  private var downstream: Downstream?

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  var description: String { "AsyncSequencePublisher" }

  override func deliver(_ element: Base.Element) -> Subscribers.Demand? {
    guard let downstream = lock.withLock({ isDone ? nil : self.downstream }) else { return nil }
    return downstream.receive(element)
  }

  override func deliver(completion: Subscribers.Completion<Base.Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      defer { self.downstream = nil }
      return self.downstream
    }
    downstream?.receive(completion: completion)
  }

  override func releaseDownstream() {
    let downstream = lock.withLock { () -> Downstream? in
      defer { self.downstream = nil }
      return self.downstream
    }
    _ = downstream  // Released outside the lock.
  }
}
