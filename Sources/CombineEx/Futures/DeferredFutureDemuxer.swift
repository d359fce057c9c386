import CombineExCore
import Dispatch

/// Shares one run of a keyed operation between every subscriber that asks for the same key
/// while it is in flight.
///
/// Give it an operation from a key to a future (a request for a user's profile, say); each
/// ``build(key:)`` returns a future for that key. Subscriptions to futures of the same key that
/// overlap share a single run of the operation, and all receive its result:
///
/// ```swift
/// let profiles = DeferredFutureDemuxer<Int, String, Never>({ id in
///   AnyDeferredFuture { promise in
///     print("request \(id)")
///     DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
///       promise(.success("user \(id)"))
///     }
///   }
/// })
/// let a = profiles.build(key: 1).sink { print($0) }
/// let b = profiles.build(key: 1).sink { print($0) }
/// // Prints: request 1, user 1, user 1 — one request, whose result both receive
/// ```
///
/// ## Semantics
/// - **Sharing.** The first subscription for a key starts a run: the operation's future for
///   that key is subscribed on `promiseQueue`. Every subscription for the key that comes before
///   the run's result joins it. The result (value or failure) goes to all of them, and the key
///   is then free: the next subscription starts a new run.
/// - **Keys are independent**: runs of different keys go on side by side.
/// - **Cancellation.** A subscriber that cancels leaves the run; when the last one leaves, the
///   run is cancelled (so is the task of an `async` future), unlike the original CombineEx, which
///   let it run. A run given up before it started never starts.
/// - **Threads.** `build` and subscriptions may come from any thread; the operation is called
///   on `promiseQueue`, and the result is delivered on the thread the run produces it on. No
///   lock is held while the operation, a promise or a subscriber runs.
/// - **Lifetime.** The futures `build` returns keep the demuxer alive; the demuxer keeps a run
///   alive until its result or its last subscriber's cancel.
public final class DeferredFutureDemuxer<Key: Hashable, Output, Failure: Error>: @unchecked Sendable
{
  // @unchecked Sendable: `machine` is guarded by `lock`; `operation` and `promiseQueue` are
  // immutable, and the operation is only called on `promiseQueue`.

  private let operation: (Key) -> AnyDeferredFuture<Output, Failure>
  private let promiseQueue: DispatchQueue
  private let lock = Lock()
  private var machine = DemuxerStateMachine<Key, Output, Failure>()

  /// Creates a demuxer of `operation`, whose runs start on `promiseQueue` (a global queue of
  /// default quality of service when `nil`).
  ///
  /// ```swift
  /// let demuxer = DeferredFutureDemuxer<String, Int, Never>({ word in
  ///   AnyDeferredFuture.just(word.count)
  /// }, promiseQueue: .main)
  /// ```
  public init(
    _ operation: @escaping (Key) -> AnyDeferredFuture<Output, Failure>,
    promiseQueue: DispatchQueue? = nil
  ) {
    self.operation = operation
    self.promiseQueue = promiseQueue ?? .global(qos: .default)
  }

  /// A future of the operation's result for `key`, whose subscriptions share the key's run in
  /// flight (or start one).
  ///
  /// ```swift
  /// let lengths = DeferredFutureDemuxer<String, Int, Never>({ .just($0.count) })
  /// let cancellable = lengths.build(key: "four").sink { print($0) }  // Prints: 4 — soon
  /// ```
  ///
  /// The future keeps the demuxer alive.
  public func build(key: Key) -> AnyDeferredFuture<Output, Failure> {
    DeferredFuture(
      publisher: FutureWork<Output, Failure> { [self] promise in
        let (token, runToStart) = lock.withLock { machine.join(key, promise: promise) }
        // Seen without its generic parameters, so that the closures sent to other threads
        // capture nothing that is not `Sendable`.
        let control: any DemuxerControl = self
        if let runToStart {
          promiseQueue.async { control.start(runToStart) }
        }
        return { control.leave(token) }
      }
    ).eraseToAnyDeferredFuture()
  }

  /// Subscribes run `id` to the operation's future, unless every waiter left meanwhile.
  func start(_ id: Int) {
    guard let key = lock.withLock({ machine.key(ofRun: id) }) else { return }
    let subscription = operation(key).sink(
      receiveCompletion: { [self] completion in
        if case .failure(let error) = completion { finish(id, with: .failure(error)) }
      },
      receiveValue: { [self] value in finish(id, with: .success(value)) })
    let unwanted = lock.withLock { machine.started(id, subscription: subscription) }
    unwanted?.cancel()
  }

  private func finish(_ id: Int, with result: Result<Output, Failure>) {
    let (promises, subscription) = lock.withLock { machine.finished(id) }
    _ = subscription  // Released here, outside the lock.
    for promise in promises { promise(result) }
  }

  func leave(_ token: Int) {
    let (_, subscription) = lock.withLock { machine.left(token) }
    subscription?.cancel()
  }
}

extension DeferredFutureDemuxer: DemuxerControl {}

/// What the closures of a ``DeferredFutureDemuxer``'s futures call on it.
protocol DemuxerControl: AnyObject, Sendable {
  /// Starts run `id` (called on the demuxer's promise queue).
  func start(_ id: Int)
  /// Waiter `token` cancelled.
  func leave(_ token: Int)
}
