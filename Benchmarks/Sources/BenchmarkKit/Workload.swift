/// One benchmark: a function that sets up its subject, measures one region with a ``Bench``,
/// and tears down. The same function is compiled against each library (see Package.swift), and
/// the runner pairs the two builds by ``key``.
public struct Workload {
  /// What the measured region reports.
  public enum Metric: Sendable {
    /// Nanoseconds of the measuring thread's processor time per unit
    /// (`CLOCK_THREAD_CPUTIME_ID`), for workloads that run on that one thread: unlike wall-clock
    /// time, it does not count the time the thread waits while other processes use the
    /// machine's processors.
    case cpuTime
    /// Nanoseconds of wall-clock time per unit (`CLOCK_MONOTONIC`), for workloads that hand
    /// work to other threads.
    case wallTime
    /// Heap bytes in use per unit (glibc `mallinfo2().uordblks` delta).
    case bytes
  }

  /// A performance target from issue #7, checked against CombineEx's measurements.
  public enum Target: Sendable {
    /// At least this many times faster than OpenCombine (ratio of the medians).
    case fasterThanOpenCombine(Double)
    /// At most this many times slower than another workload (the raw loop, `a`).
    case withinFactorOf(String, Double)
    /// At most this many bytes per unit.
    case atMostBytes(Double)
    /// No heap allocation per unit (fewer than one per hundred units, so that the setup of the
    /// measured region does not count).
    case noAllocations
    /// Not a target: shows how many times slower than another workload (the raw loop, `a`)
    /// this one is, for workloads whose issue asks for that multiple without a bound.
    case multipleOf(String)
  }

  /// A short identifier used to pair the two builds and to select workloads on the command
  /// line: the letter and a digit (`c1`).
  public let key: String

  /// What the workload does, in pipeline notation.
  public let title: String

  /// What one unit is (`element`, `send`, `subscription` ...).
  public let unit: String

  /// Time or memory.
  public let metric: Metric

  /// The targets CombineEx is held to in this workload.
  public let targets: [Target]

  /// How this library's build runs the workload, when that differs between the libraries
  /// (an emulated operator, an eager fusion); printed under the table.
  public let note: String?

  /// The workload: it must call ``Bench/measure(units:_:)`` (or
  /// ``Bench/measureBytes(units:_:)``) exactly once.
  public let body: (Bench) -> Void

  /// Creates a workload.
  public init(
    _ key: String, _ title: String, unit: String, metric: Metric = .cpuTime,
    targets: [Target] = [], note: String? = nil, body: @escaping (Bench) -> Void
  ) {
    self.key = key
    self.title = title
    self.unit = unit
    self.metric = metric
    self.targets = targets
    self.note = note
    self.body = body
  }
}

extension Array where Element == Workload {
  /// This list with `workloads` placed right after the workload keyed `key` (at the end if
  /// there is none), to run them in report order from another module.
  public func inserting(_ workloads: [Workload], after key: String) -> [Workload] {
    var list = self
    let index = list.firstIndex { $0.key == key }.map { $0 + 1 } ?? list.endIndex
    list.insert(contentsOf: workloads, at: index)
    return list
  }

  /// This list with `workloads` placed right before the workload keyed `key` (at the end if
  /// there is none).
  public func inserting(_ workloads: [Workload], before key: String) -> [Workload] {
    var list = self
    list.insert(contentsOf: workloads, at: list.firstIndex { $0.key == key } ?? list.endIndex)
    return list
  }
}
