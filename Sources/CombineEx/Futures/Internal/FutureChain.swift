import CombineExCore

/// A ``DeferredFuture`` composed of work-based futures and single-value operators (`map`,
/// `flatMap`, `catch`, ...), run as one subscription: the operators compose the work's start
/// closures, so a chain subscribes no publisher per stage, only the core's single-result
/// subscription once.
@usableFromInline
struct FutureChain<Output, Failure: Error>: Publisher {
  /// What receives the chain's result: the rest of a longer chain, or the subscription. Not
  /// `@Sendable`, as the operators' closures it runs are not: it runs on the thread that calls
  /// the work's promise, as an operator on a publisher runs on its upstream's thread.
  @usableFromInline
  typealias Continuation = (Result<Output, Failure>) -> Void

  /// Starts one subscription's chain in `run` (shared by its stages) with its continuation.
  @usableFromInline
  typealias Start = (FutureRun, @escaping Continuation) -> Void

  /// Starts one subscription's chain.
  @usableFromInline
  let start: Start

  @inlinable
  init(_ start: @escaping Start) {
    self.start = start
  }

  @inlinable
  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    // As `FutureWork`'s: nothing is delivered before the chain has started and
    // `receive(subscription:)` has returned.
    let subscription = SingleResultSubscription(kind: .work, origin: nil, downstream: subscriber)
    subscriber.receive(subscription: subscription)
    startChain(for: subscription)
  }

  /// Starts the chain for `subscription`, which its subscriber has received.
  @usableFromInline
  func startChain(for subscription: SingleResultSubscription) {
    guard subscription.mayStartWork else { return }
    let run = FutureRun()
    start(run) { [subscription] result in subscription.fulfill(result) }
    subscription.finishStartingWork(cancellingWith: { run.cancel() })
  }

  /// The chain that runs this one, then calls `next` with its result and the new chain's
  /// promise (in the same run, so `next` may start the next stage there).
  @inlinable
  func then<NewOutput, NewFailure: Error>(
    _ next:
      @escaping (
        Result<Output, Failure>, FutureRun,
        @escaping FutureChain<NewOutput, NewFailure>.Continuation
      ) -> Void
  ) -> FutureChain<NewOutput, NewFailure> {
    let start = self.start
    return FutureChain<NewOutput, NewFailure> { run, promise in
      start(run) { result in next(result, run, promise) }
    }
  }
}

/// The subscriber through which a composed future runs a stage made from a publisher (a future
/// built with `delay`, `receive(on:)`, `timeout`, ...): it asks for the value, and passes the
/// first result on through the stage.
@usableFromInline
final class FutureStageSubscriber<Input, Failure: Error>: Subscriber, Sendable {
  @usableFromInline
  let combineIdentifier = CombineIdentifier()
  private let stage: FutureStage<Input, Failure>

  @usableFromInline
  init(stage: FutureStage<Input, Failure>) {
    self.stage = stage
  }

  @usableFromInline
  func receive(subscription: any Subscription) {
    // A subscription may be cancelled from any thread.
    let handoff = Handoff(subscription)
    stage.keep { handoff.value.cancel() }
    subscription.request(.unlimited)
  }

  @usableFromInline
  func receive(_ input: Input) -> Subscribers.Demand {
    stage.report(.success(input))
    return .none
  }

  @usableFromInline
  func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .failure(let error):
      stage.report(.failure(error))
    case .finished:
      // After the value: nothing left to do. Without a value (no future that CombineEx's API
      // makes ends so), the chain ends without a result.
      break
    }
  }
}
