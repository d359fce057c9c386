import MallocCounter

/// What a workload's body uses to size itself and to measure its region.
public final class Bench {
  /// How many times larger (or, below 1, smaller) than the default the workloads run.
  public let scale: Double

  /// What this run is for.
  let purpose: Purpose

  /// The clock `measure` reads.
  let clock: () -> UInt64

  /// What the last measured region recorded.
  var sample: Sample?

  /// What the workload computed, to compare between the libraries.
  var checksum: Int?

  /// Why the runner runs a workload: every workload runs once to warm up, once to count
  /// allocations, then several times to be timed.
  enum Purpose {
    case warmUp
    case countAllocations
    case time
  }

  init(scale: Double, purpose: Purpose, clock: @escaping () -> UInt64) {
    self.scale = scale
    self.purpose = purpose
    self.clock = clock
  }

  /// Runs the region; only timed runs go through ``measuredRegion(_:)``, which a profiler can
  /// single out.
  private func run(_ region: () -> Void) {
    if purpose == .time {
      measuredRegion(region)
    } else {
      region()
    }
  }

  /// Records what the workload computed (its sinks' total), so that nothing is optimized away
  /// and the runner can check that both libraries computed the same.
  public func consume(_ result: Int) {
    checksum = result
    BenchmarkKit.consume(result)
  }

  /// `count` scaled by the command line's `--scale`, at least 1.
  public func size(_ count: Int) -> Int {
    max(1, Int((Double(count) * scale).rounded()))
  }

  /// Measures the time (and, in counting runs, the allocations) of `region`, reported per
  /// `units`. Setup before and teardown after the call are not measured.
  public func measure(units: Int, _ region: () -> Void) {
    let before = startCounting()
    let start = clock()
    run(region)
    let end = clock()
    let allocations = stopCounting(before)
    sample = Sample(units: units, value: Double(end - start), allocations: allocations)
  }

  /// Measures the heap bytes that `region` leaves in use (glibc's `mallinfo2().uordblks`,
  /// chunk headers included), reported per `units`. The region must keep what it creates alive
  /// (store it in storage reserved beforehand), so the runner sees it in use.
  public func measureBytes(units: Int, _ region: () -> Void) {
    let before = startCounting()
    let bytesBefore = mallocBytesInUse()
    run(region)
    let bytesAfter = mallocBytesInUse()
    let allocations = stopCounting(before)
    sample = Sample(
      units: units, value: Double(Int64(bitPattern: bytesAfter &- bytesBefore)),
      allocations: allocations)
  }

  private func startCounting() -> UInt64 {
    guard purpose == .countAllocations else { return 0 }
    let counts = mallocCounterRead()
    mallocCounterSetEnabled(true)
    return counts.allocations + counts.reallocations
  }

  private func stopCounting(_ before: UInt64) -> UInt64? {
    guard purpose == .countAllocations else { return nil }
    mallocCounterSetEnabled(false)
    let counts = mallocCounterRead()
    return counts.allocations + counts.reallocations - before
  }
}

/// Runs the measured region of a timed run. Never inlined, so that a profiler can be told to
/// look only inside it: `valgrind --tool=callgrind --toggle-collect='*measuredRegion*'` counts
/// the instructions of the timed regions alone (see Benchmarks/callgrind.sh).
@inline(never)
func measuredRegion(_ region: () -> Void) {
  region()
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

/// The element transform of the map/filter workloads. Workloads call it from a closure literal
/// (`map { triple($0) }`): the call is opaque to the optimizer (another module, never inlined),
/// as user code would be, while the closure itself is written where it is used, as users write
/// it. (Passing a closure *value* into a generic operator would make Swift wrap it in a
/// reabstraction thunk: an allocation per subscription and an extra call per element, in both
/// libraries, that real code rarely pays.)
@inline(never)
public func triple(_ value: Int) -> Int {
  value &* 3
}

/// The predicate of the filter workloads; see ``triple(_:)``.
@inline(never)
public func isEven(_ value: Int) -> Bool {
  value & 1 == 0
}

/// Consumes `value` so that the computation producing it is not optimized away.
@inline(never)
@_optimize(none)
public func consume<T>(_ value: T) {
  _ = value
}

/// Where sinks accumulate what they receive, so that nothing is optimized away. A class, so
/// that a closure capturing it captures one reference (no per-closure box); its storage is a
/// pointer, so that adding costs one add (a stored property of a class in another module would
/// add a dynamic exclusivity check per value, which is the harness's cost, not the library's).
public final class Total {
  @usableFromInline
  let storage: UnsafeMutablePointer<Int>

  /// Creates a total of zero.
  public init() {
    storage = .allocate(capacity: 1)
    storage.initialize(to: 0)
  }

  deinit {
    storage.deallocate()
  }

  /// The running sum.
  public var value: Int { storage.pointee }

  /// Adds `value` to the sum, wrapping around on overflow.
  @inlinable
  public func add(_ value: Int) {
    storage.pointee &+= value
  }
}

/// The latest value a sink stored, for workloads that read a derived value after each change
/// (`k5`); pointer-backed for the reason ``Total`` is.
public final class Cell {
  @usableFromInline
  let storage: UnsafeMutablePointer<Int>

  /// Creates a cell holding zero.
  public init() {
    storage = .allocate(capacity: 1)
    storage.initialize(to: 0)
  }

  deinit {
    storage.deallocate()
  }

  /// The stored value.
  @inlinable
  public var value: Int {
    get { storage.pointee }
    set { storage.pointee = newValue }
  }
}
