import CombineEx
import Foundation
import Synchronization

/// The failure every scripted source sends: an error with an identity, so that a test can tell
/// which failure came through.
struct ConformanceError: Error, Equatable, Codable, CustomStringConvertible {
  let id: Int
  init(_ id: Int) { self.id = id }
  var description: String { "E\(id)" }
}

/// An object captured by the closures of a publisher under test. The harness holds it weakly:
/// once the pipeline has completed or been cancelled, and the publisher value is gone, it must
/// be freed, or something in the pipeline still holds the closures.
final class Canary: Sendable {
  /// Returns `value` unchanged; closures call it so that they capture the canary.
  func pass<T>(_ value: T) -> T { value }
}

/// A weak reference with a label saying what it watches, for leak reports.
struct WeakReference {
  let label: String
  private let read: () -> AnyObject?

  init(_ label: String, _ object: AnyObject) {
    self.label = label
    weak let weakObject = object
    read = { weakObject }
  }

  /// Whether the object is still alive.
  var isAlive: Bool { read() != nil }
}

/// A small, fast, seedable random number generator (SplitMix64), so that every random run can
/// be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A random integer in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// `true` with the given probability.
  mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }

  /// A random element of a non-empty array.
  mutating func pick<T>(_ elements: [T]) -> T { elements.randomElement(using: &self)! }
}

/// A number identifying the calling thread, to tell a re-entrant call (same thread) from a
/// concurrent one.
func currentThreadNumber() -> UInt {
  UInt(bitPattern: Unmanaged.passUnretained(Thread.current).toOpaque())
}

/// Runs `body` on a thread of its own and waits for it for at most `timeout`. Returns `false`
/// if it did not finish in time: a deadlock (the stuck thread is abandoned, so that the test
/// reports the problem instead of hanging the whole run).
func finishesInTime(
  _ timeout: Duration, _ body: @escaping @Sendable () -> Void
) async -> Bool {
  let claimed = OnceFlag()
  return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    let resumeOnce: @Sendable (Bool) -> Void = { finished in
      if claimed.claim() {
        continuation.resume(returning: finished)
      }
    }
    let thread = Thread {
      body()
      resumeOnce(true)
    }
    thread.stackSize = 8 << 20
    thread.start()
    let seconds = Double(timeout.components.seconds)
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { resumeOnce(false) }
  }
}

extension Subscribers.Demand {
  /// A compact description for reports: `1`, `3`, `∞`.
  var short: String { max.map(String.init) ?? "∞" }
}

/// A flag that one caller, and only one, can claim.
final class OnceFlag: Sendable {
  private let flag = Atomic<Bool>(false)

  /// Returns `true` for the first caller only.
  func claim() -> Bool { !flag.exchange(true, ordering: .acquiringAndReleasing) }
}
