import Foundation

/// A value shared by the threads of a stress test, guarded by an `NSLock`.
///
/// Stress tests use it rather than the standard library's `Mutex`, whose contended path runs in
/// the uninstrumented runtime and makes the thread sanitizer report false races.
final class LockedBox<Value>: @unchecked Sendable {
  // @unchecked Sendable: `value` is only touched under `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
