import CombineEx
import Foundation

/// A thread-safe counter: how many times a factory, a closure or a run happened.
final class RunCounter: Sendable {
  private let count = LockedBox(0)

  /// The count so far.
  var value: Int { count.withLock { $0 } }

  /// Adds one and returns the new count.
  @discardableResult
  func increment() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
}

/// An error with an identity, for the failure paths of cold publishers and actions.
struct ColdTestError: Error, Equatable, CustomStringConvertible {
  let id: Int
  init(_ id: Int = 0) { self.id = id }
  var description: String { "ColdTestError(\(id))" }
}

/// A cold publisher of `values` that counts how many times its factory ran.
func countingDeferred<Failure: Error>(
  _ values: [Int], failure: Failure.Type = Never.self, counter: RunCounter
) -> Deferred<Publishers.Sequence<[Int], Failure>> {
  Deferred {
    counter.increment()
    return Publishers.Sequence(sequence: values)
  }
}

/// Whether `value`'s dynamic type conforms to ``ColdPublisher``.
func isCold(_ value: Any) -> Bool {
  value is any ColdPublisher
}
