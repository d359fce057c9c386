import CombineEx
import Dispatch
import Foundation
import Testing

/// Every test that uses the main queue through `UIScheduler` runs in this suite, one at a time:
/// `UIScheduler` counts its pending hops across the process, so a test that checks that work
/// runs inline must not overlap with another test's hops.
@Suite("Main queue", .serialized)
struct MainQueueTests {}

/// The main queue, seen from the tests: Swift Testing runs tests off the main thread, and on
/// Linux the main queue itself runs on a thread other than the main thread (the test runner has
/// called `dispatchMain()`), so tests recognise it by a queue-specific key of their own.
enum MainQueue {
  private static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// Whether the caller runs on the main queue.
  static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) != nil
  }

  /// Waits until the main queue has run everything queued before this call.
  static func drain() async {
    _ = key
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async { continuation.resume() }
    }
  }

  /// Runs `body` on a background thread and waits for it: called from main-queue work, it
  /// keeps the main queue busy meanwhile, so work `body` sends to the main queue cannot run
  /// before the caller returns.
  static func onBackgroundThread(_ body: @Sendable () -> Void) {
    DispatchQueue.global().sync(execute: body)
  }
}

/// A list of events recorded from any thread.
final class EventLog: Sendable {
  private let events = LockedBox<[String]>([])

  func append(_ event: String) {
    events.withLock { $0.append(event) }
  }

  var values: [String] { events.withLock { $0 } }
}

/// Holds a cancellable that work on another thread cancels. A cancel that comes before the
/// cancellable is stored is remembered: storing it afterwards cancels it at once, so work that
/// fires before its `store` cannot outlive its cancel.
final class CancellableBox: @unchecked Sendable {
  // @unchecked Sendable: `cancellable` and `isCancelled` are guarded by `lock`.
  private let lock = NSLock()
  private var cancellable: (any Cancellable)?
  private var isCancelled = false

  func store(_ cancellable: any Cancellable) {
    let cancelNow = lock.withLock {
      self.cancellable = cancellable
      return isCancelled
    }
    if cancelNow { cancellable.cancel() }
  }

  func cancel() {
    let cancellable = lock.withLock {
      isCancelled = true
      return self.cancellable
    }
    cancellable?.cancel()
  }
}
