import MallocCounter

/// What a workload's body uses to size itself and to measure its region.
public final class Bench {
  /// How many times larger (or, below 1, smaller) than the default the workloads run.
  public let scale: Double

  /// Whether this run counts allocations (the runner makes one such run, untimed).
  let countsAllocations: Bool

  /// What the last measured region recorded.
  var sample: Sample?

  init(scale: Double, countsAllocations: Bool) {
    self.scale = scale
    self.countsAllocations = countsAllocations
  }

  /// `count` scaled by the command line's `--scale`, at least 1.
  public func size(_ count: Int) -> Int {
    max(1, Int((Double(count) * scale).rounded()))
  }

  /// Measures the time (and, in counting runs, the allocations) of `region`, reported per
  /// `units`. Setup before and teardown after the call are not measured.
  public func measure(units: Int, _ region: () -> Void) {
    let before = startCounting()
    let start = monotonicNanoseconds()
    region()
    let end = monotonicNanoseconds()
    let allocations = stopCounting(before)
    sample = Sample(units: units, value: Double(end - start), allocations: allocations)
  }

  /// Measures the heap bytes that `region` leaves in use (glibc's `mallinfo2().uordblks`,
  /// chunk headers included), reported per `units`. The region must keep what it creates alive
  /// (store it in storage reserved beforehand), so the runner sees it in use.
  public func measureBytes(units: Int, _ region: () -> Void) {
    let before = startCounting()
    let bytesBefore = mallocBytesInUse()
    region()
    let bytesAfter = mallocBytesInUse()
    let allocations = stopCounting(before)
    sample = Sample(
      units: units, value: Double(Int64(bitPattern: bytesAfter &- bytesBefore)),
      allocations: allocations)
  }

  private func startCounting() -> UInt64 {
    guard countsAllocations else { return 0 }
    let counts = mallocCounterRead()
    mallocCounterSetEnabled(true)
    return counts.allocations + counts.reallocations
  }

  private func stopCounting(_ before: UInt64) -> UInt64? {
    guard countsAllocations else { return nil }
    mallocCounterSetEnabled(false)
    let counts = mallocCounterRead()
    return counts.allocations + counts.reallocations - before
  }
}

/// One run's measurement of a region.
struct Sample {
  /// The units the region processed.
  let units: Int
  /// Nanoseconds or bytes, for the whole region.
  let value: Double
  /// Allocations and reallocations made in the region (counting runs only).
  let allocations: UInt64?

  var perUnit: Double { value / Double(units) }
}

/// Returns `value` through a call the optimizer cannot see into, so that closures passed through
/// it are opaque to the code they are given to (no inlining, no constant folding), exactly as
/// for real user code.
@inline(never)
@_optimize(none)
public func opaque<T>(_ value: T) -> T {
  value
}

/// The same for an element transform, without the generic reabstraction thunks that the
/// generic version would wrap around a closure.
@inline(never)
@_optimize(none)
public func opaque(_ transform: @escaping (Int) -> Int) -> (Int) -> Int {
  transform
}

/// The same for a predicate.
@inline(never)
@_optimize(none)
public func opaque(_ predicate: @escaping (Int) -> Bool) -> (Int) -> Bool {
  predicate
}

/// Consumes `value` so that the computation producing it is not optimized away.
@inline(never)
@_optimize(none)
public func consume<T>(_ value: T) {
  _ = value
}
