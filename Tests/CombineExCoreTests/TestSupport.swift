import CombineExCore
import Foundation
import Synchronization

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

/// Records values delivered from any thread and counts overlapping deliveries, which would
/// break the serial-delivery rule.
final class SerialDeliveryChecker: Sendable {
  private let state = Mutex<(values: [Int], inside: Int, overlaps: Int)>(([], 0, 0))

  func receive(_ value: Int) {
    state.withLock {
      $0.inside += 1
      if $0.inside > 1 { $0.overlaps += 1 }
    }
    state.withLock {
      $0.values.append(value)
      $0.inside -= 1
    }
  }

  var values: [Int] { state.withLock { $0.values } }
  var overlaps: Int { state.withLock { $0.overlaps } }
}

/// Runs `body` on `count` threads at once (real threads, so that they truly race) and returns
/// when all are done.
func concurrentPerform(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.global().async {
      DispatchQueue.concurrentPerform(iterations: count, execute: body)
      continuation.resume()
    }
  }
}
