import Foundation

// What the shared ConcurrencySupport.swift needs from this target (CombineExCoreTests has the
// same in its own support files).

/// An error with an identity, for failure paths.
struct TestError: Error, Equatable, CustomStringConvertible {
  let id: Int
  init(_ id: Int = 0) { self.id = id }
  var description: String { "TestError(\(id))" }
}

/// An object whose lifetime the leak tests watch through weak references.
final class TestOwner: @unchecked Sendable {
  var values: [Int] = []
}

/// A counter shared by the threads of a test.
final class Counter: @unchecked Sendable {
  // @unchecked Sendable: `count` is only touched under `lock`.
  private let lock = NSLock()
  private var count = 0

  /// The current count.
  var value: Int { lock.withLock { count } }

  /// Adds one; returns the new count.
  @discardableResult
  func increment() -> Int {
    lock.withLock {
      count += 1
      return count
    }
  }
}
