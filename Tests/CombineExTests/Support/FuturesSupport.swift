import CombineEx
import CombineExTesting
import Foundation
import Testing

/// An error with an identity, for the futures' failure paths.
struct FuturesError: Error, Equatable, CustomStringConvertible {
  let id: Int
  init(_ id: Int = 0) { self.id = id }
  var description: String { "FuturesError(\(id))" }
}

/// An object whose lifetime the futures' leak tests watch through weak references.
final class FuturesOwner: @unchecked Sendable {
  // @unchecked Sendable: `values` is touched by one thread at a time in these tests.
  var values: [Int] = []
}

/// A thread-safe counter (an `NSLock`, which the thread sanitizer understands).
final class FuturesCounter: @unchecked Sendable {
  // @unchecked Sendable: `count` is guarded by `lock`.
  private let lock = NSLock()
  private var count = 0

  /// Adds one and returns the new count.
  @discardableResult
  func increment() -> Int {
    lock.withLock {
      count += 1
      return count
    }
  }

  var value: Int { lock.withLock { count } }
}

/// An event a test awaits across threads and tasks: `fire()` from anywhere, then
/// `await wait()`, which records an issue instead of hanging if the event does not come (the
/// wait is ``TestSubscriber``'s, with its generous default timeout).
final class FuturesSignal: @unchecked Sendable {
  // @unchecked Sendable: `PassthroughSubject` and `TestSubscriber` are thread-safe.
  private let subject = PassthroughSubject<Void, Never>()
  private let recorder: TestSubscriber<Void, Never>

  init() {
    recorder = subject.record()
  }

  /// Records one occurrence of the event.
  func fire() { subject.send(()) }

  /// How many times the event happened so far.
  var count: Int { recorder.values.count }

  /// Waits until the event happened `count` times in all.
  func wait(count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) async {
    _ = await recorder.values(count: count, sourceLocation: sourceLocation)
  }
}

/// A `DeferredFuture` whose promises the test holds: each subscription runs the work, which
/// only keeps its promise, so the test decides when, where and how each run ends.
final class ManualWork<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: `promises` is guarded by `lock`.
  private let lock = NSLock()
  private var promises: [DeferredFuture<Output, Failure>.Promise] = []

  /// Fired each time the work runs, after its promise is stored: wait for it before fulfilling
  /// a run started on another task.
  let started = FuturesSignal()

  /// The future: each subscription adds a promise.
  var future: DeferredFuture<Output, Failure> {
    DeferredFuture { [self] promise in
      lock.withLock { promises.append(promise) }
      started.fire()
    }
  }

  /// How many times the work ran (once per subscription).
  var runs: Int { lock.withLock { promises.count } }

  /// The promise of run `index` (the latest by default); the test fails if it does not exist.
  func promise(_ index: Int? = nil) -> DeferredFuture<Output, Failure>.Promise {
    lock.withLock { index.map { promises[$0] } ?? promises[promises.count - 1] }
  }

  /// Ends the latest run with `result`.
  func fulfill(_ result: Result<Output, Failure>) {
    promise()(result)
  }
}

/// Suspends until the current task is cancelled.
func awaitTaskCancellation() async {
  let gate = CancellationGate()
  await withTaskCancellationHandler {
    await withCheckedContinuation { gate.park($0) }
  } onCancel: {
    gate.open()
  }
}

/// Where ``awaitTaskCancellation()`` parks its task until the cancellation handler opens it.
private final class CancellationGate: @unchecked Sendable {
  // @unchecked Sendable: both properties are guarded by `lock`.
  private let lock = NSLock()
  private var parked: CheckedContinuation<Void, Never>?
  private var isOpen = false

  func park(_ continuation: CheckedContinuation<Void, Never>) {
    let resumeNow = lock.withLock { () -> Bool in
      if isOpen { return true }
      parked = continuation
      return false
    }
    if resumeNow { continuation.resume() }
  }

  func open() {
    let continuation = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      isOpen = true
      defer { parked = nil }
      return parked
    }
    continuation?.resume()
  }
}

/// The failure of a completion, if it is one.
func completionFailure<Failure>(_ completion: Subscribers.Completion<Failure>?) -> Failure? {
  guard case .failure(let error) = completion else { return nil }
  return error
}
