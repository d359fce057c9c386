// Shared by CombineExCoreTests and CombineExTests: each target's Support folder links to this file.
import CombineExCore
import CombineExTesting
import Foundation
import Testing

/// An event that a test awaits across threads and tasks: `fire()` from anywhere, then
/// `await wait()`, which records an issue instead of hanging if the event does not come
/// (the wait is ``TestSubscriber``'s, with its generous default timeout).
final class Signal: @unchecked Sendable {
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

/// Waits until `isReleased()` holds, polling every 10 ms for at most 30 s: for an object that
/// another thread lets go of just after it delivered what the test awaited (a sink releases its
/// closures after `receiveCompletion` returns; a queue's work item its captures after it ends).
/// The caller's `#expect` that follows fails if the release never comes.
func waitForRelease(_ isReleased: () -> Bool) async {
  for _ in 0..<3000 where !isReleased() { try? await Task.sleep(for: .milliseconds(10)) }
}

// `Counter` (a thread-safe counter) is in SharingSupport.swift.

/// An asynchronous sequence of `1...count` that counts how many iterators were made and how
/// many elements were pulled, and cannot throw (its `Failure` is `Never`).
struct CountingSequence: AsyncSequence, Sendable {
  typealias Element = Int
  let count: Int
  let iterators = Counter()
  let pulls = Counter()

  struct AsyncIterator: AsyncIteratorProtocol {
    let count: Int
    let pulls: Counter
    var next = 1

    mutating func next() async -> Int? {
      pulls.increment()
      guard next <= count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    iterators.increment()
    return AsyncIterator(count: count, pulls: pulls)
  }
}

/// An asynchronous sequence that produces `1...count` and then throws `error`; its `Failure`
/// is `any Error`, like every sequence whose `next()` is plainly `throws`.
struct FailingSequence: AsyncSequence, Sendable {
  typealias Element = Int
  let count: Int
  let error: TestError

  struct AsyncIterator: AsyncIteratorProtocol {
    let count: Int
    let error: TestError
    var next = 1

    mutating func next() async throws -> Int? {
      guard next <= count else { throw error }
      defer { next += 1 }
      return next
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(count: count, error: error)
  }
}

/// An asynchronous sequence whose `next()` fires `pulled`, then waits until its task is
/// cancelled, fires `cancelled` and returns `nil`.
struct CancellationAwaitingSequence: AsyncSequence, Sendable {
  typealias Element = Int
  let pulled = Signal()
  let cancelled = Signal()

  struct AsyncIterator: AsyncIteratorProtocol {
    let pulled: Signal
    let cancelled: Signal

    mutating func next() async -> Int? {
      pulled.fire()
      await waitForCancellation()
      cancelled.fire()
      return nil
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(pulled: pulled, cancelled: cancelled)
  }
}

/// Suspends until the current task is cancelled.
func waitForCancellation() async {
  let gate = LockedBox<(continuation: CheckedContinuation<Void, Never>?, cancelled: Bool)>(
    (nil, false))
  await withTaskCancellationHandler {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = gate.withLock { state -> Bool in
        if state.cancelled { return true }
        state.continuation = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  } onCancel: {
    let continuation = gate.withLock { state -> CheckedContinuation<Void, Never>? in
      state.cancelled = true
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume()
  }
}
