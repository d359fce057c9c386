import CombineExCore

/// The source of every ``DeferredFuture`` made from work: a cold publisher that starts its work
/// for each subscription and publishes the first result the work reports through its promise.
@usableFromInline
struct FutureWork<Output, Failure: Error>: Publisher {
  /// Starts the work of one subscription with its promise, and returns how to cancel that
  /// work, or `nil` if it cannot be cancelled.
  @usableFromInline
  typealias Start = (@escaping Future<Output, Failure>.Promise) -> (@Sendable () -> Void)?

  /// Starts the work of one subscription.
  @usableFromInline
  let start: Start

  @inlinable
  init(_ start: @escaping Start) {
    self.start = start
  }

  @inlinable
  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    // The core's single-result subscription, as `Future`'s; it never delivers before the work
    // has been started and `receive(subscription:)` has returned. Made here, specialized for
    // the subscriber, so that delivering runs specialized too.
    let subscription = SingleResultSubscription(kind: .work, origin: nil, downstream: subscriber)
    subscriber.receive(subscription: subscription)
    startWork(for: subscription)
  }

  /// Starts the work for `subscription`, which its subscriber has received.
  @usableFromInline
  func startWork(for subscription: SingleResultSubscription) {
    // Not if the subscriber cancelled from inside `receive(subscription:)`.
    guard subscription.mayStartWork else { return }
    let cancelWork = start { [subscription] result in subscription.fulfill(result) }
    subscription.finishStartingWork(cancellingWith: cancelWork)
  }

  /// Runs this work as the next stage of a composed future's subscription: its promise counts
  /// once, and not after the subscriber cancelled; the run keeps its cancel while it runs.
  @inlinable
  func run(in run: FutureRun, promise: @escaping FutureChain<Output, Failure>.Continuation) {
    let stage = FutureStage(run: run, continuation: promise)
    guard stage.begin() else { return }
    if let cancelWork = start({ [stage] result in stage.report(result) }) { stage.keep(cancelWork) }
  }
}
