import Foundation
import MallocCounter

/// One table of the report: CombineEx's workloads beside another library's, paired by key.
public struct Comparison {
  /// The other library, as the table's column and the summary name it (`OpenCombine`).
  public let library: String
  /// The other library's version, for the report's first line.
  public let version: String
  /// What `--only` calls the other library's side (`opencombine`).
  public let option: String
  /// A line printed above the table, saying what it measures; `nil` for none.
  public let caption: String?
  /// CombineEx's workloads, in report order.
  public let ours: [Workload]
  /// The other library's workloads; those whose key CombineEx lacks run after CombineEx's.
  public let theirs: [Workload]

  /// Creates a table.
  public init(
    library: String, version: String, option: String, caption: String? = nil,
    ours: [Workload], theirs: [Workload]
  ) {
    self.library = library
    self.version = version
    self.option = option
    self.caption = caption
    self.ours = ours
    self.theirs = theirs
  }
}

/// Runs CombineEx's workloads beside the other libraries' (OpenCombine's,
/// swift-async-algorithms'), in this process, one table per comparison, and prints the tables,
/// the notes and the summary. `arguments` are the command line's (without the program name):
/// `--runs N`, `--scale X`, and workload keys or key prefixes to run a subset.
public func runBenchmarks(_ comparisons: [Comparison], arguments: [String]) {
  let options: Options
  do {
    options = try Options(arguments, libraries: comparisons.map(\.option))
  } catch {
    print("error: \(error)\n\n\(Options.usage)")
    exit(2)
  }
  if options.showsHelp {
    print(Options.usage)
    return
  }
  let keys = comparisons.flatMap { $0.ours.map(\.key) + $0.theirs.map(\.key) }
  var runner = Runner(options: options, keyWidth: (keys.map(\.count).max() ?? 0) + 1)
  runner.checkAllocationCounting()
  var libraries: [String] = []
  for comparison in comparisons {
    let name = "\(comparison.library) \(comparison.version)"
    if !libraries.contains(name) { libraries.append(name) }
  }
  runner.printHeader(libraries)
  for comparison in comparisons {
    let ours = options.runsCombineEx ? comparison.ours : []
    let theirs = options.runs(comparison.option) ? comparison.theirs : []
    let selected = (ours + theirs).contains { options.selects($0.key) }
    guard selected else { continue }
    runner.printTableHeader(comparison)
    let theirsByKey = Dictionary(
      theirs.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let oursByKey = Dictionary(ours.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    // CombineEx's order, then any workload only the other library's build has.
    var keys = ours.map(\.key)
    keys += theirs.map(\.key).filter { oursByKey[$0] == nil }
    for key in keys where options.selects(key) {
      runner.run(oursByKey[key], theirsByKey[key], against: comparison.library)
    }
  }
  runner.printFooter()
}

/// The command line.
struct Options {
  var runs = 7
  var scale = 1.0
  var keys: [String] = []
  var skippedKeys: [String] = []
  var wallClock = false
  var printsUnits = false
  /// The one library whose side runs (`--only`): `combineex` or another library's option;
  /// `nil` runs both sides of every table.
  var only: String?
  var showsHelp = false

  /// Whether CombineEx's side runs.
  var runsCombineEx: Bool { only == nil || only == "combineex" }

  /// Whether the side of the library that `--only` calls `option` runs.
  func runs(_ option: String) -> Bool { only == nil || only == option }

  /// Whether both sides of each table run.
  var runsBothSides: Bool { only == nil }

  static let usage = """
    usage: swift run -c release --package-path Benchmarks \
    [combineex-benchmarks [--runs N] [--scale X] [--wall] [--only LIBRARY] [--skip KEY] [KEY ...]]
      (name the executable before its options, so that `swift run` passes them on)
      --runs N           timed runs per library and workload (default 7; the median is shown)
      --scale X          multiply every workload's size by X (default 1; 0.1 for a quick look)
      --wall             time every workload by the wall clock (by default, workloads that run
                         on one thread are timed by that thread's processor time, which a
                         loaded machine disturbs less)
      --only LIBRARY     run one library's build only: combineex, opencombine or asyncalgorithms
                         (to profile it)
      --print-units      also print `units KEY N` after each row (for scripts: callgrind.sh)
      --skip KEY         do not run the workloads whose key starts with KEY (repeatable)
      KEY ...            run only the workloads whose key starts with one of these (a, b, c1 ...)
    """

  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  /// Reads `arguments`; `libraries` are the other libraries' `--only` names.
  init(_ arguments: [String], libraries: [String] = ["opencombine"]) throws {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--runs":
        guard let value = remaining.popFirst().flatMap({ Int($0) }), value >= 1 else {
          throw Invalid(description: "--runs needs a positive integer")
        }
        runs = value
      case "--scale":
        guard let value = remaining.popFirst().flatMap({ Double($0) }), value > 0 else {
          throw Invalid(description: "--scale needs a positive number")
        }
        scale = value
      case "--wall":
        wallClock = true
      case "--print-units":
        printsUnits = true
      case "--only":
        let known = ["combineex"] + libraries
        guard let library = remaining.popFirst()?.lowercased(), known.contains(library) else {
          throw Invalid(description: "--only needs one of \(known.joined(separator: ", "))")
        }
        only = library
      case "--skip":
        guard let key = remaining.popFirst(), !key.hasPrefix("-") else {
          throw Invalid(description: "--skip needs a workload key")
        }
        skippedKeys.append(key)
      case "-h", "--help":
        showsHelp = true
      default:
        if argument.hasPrefix("-") {
          throw Invalid(description: "unknown option \(argument)")
        }
        keys.append(argument)
      }
    }
  }

  func selects(_ key: String) -> Bool {
    (keys.isEmpty || keys.contains { key.hasPrefix($0) })
      && !skippedKeys.contains { key.hasPrefix($0) }
  }
}

/// The measurements of one workload in one library.
struct Result {
  /// The median per unit (nanoseconds or bytes).
  let median: Double
  /// The median absolute deviation, relative to the median.
  let spread: Double
  /// Allocations per unit, from the counting run.
  let allocationsPerUnit: Double
  /// Allocations in the whole counting run.
  let allocationsPerRun: UInt64
  /// The units one run processes.
  let units: Int
}

/// Runs workloads and keeps what the report's summary needs.
struct Runner {
  let options: Options
  /// The width of the key column: the longest key, and a space.
  let keyWidth: Int
  let startLoad = loadAverage()
  var countingWorks = false
  /// CombineEx's median per workload key, for targets relative to another workload.
  var medians: [String: Double] = [:]
  /// Ratios other library / CombineEx, in run order.
  var ratios: [(library: String, key: String, ratio: Double)] = []
  var met: [String] = []
  var missed: [String] = []
  var notes: [String] = []

  init(options: Options, keyWidth: Int) {
    self.options = options
    self.keyWidth = max(4, keyWidth)
  }

  /// Checks that the process's allocation functions are the counting ones.
  mutating func checkAllocationCounting() {
    let bench = Bench(scale: 1, purpose: .countAllocations, clock: { monotonicNanoseconds() })
    bench.measure(units: 1) { consume(AllocationProbe()) }
    countingWorks = (bench.sample?.allocations ?? 0) >= 1
  }

  func printHeader(_ libraries: [String]) {
    let clock =
      options.wallClock
      ? "wall-clock time"
      : "the thread's processor time (CLOCK_THREAD_CPUTIME_ID) for single-thread workloads, "
        + "wall-clock time for the others"
    print(
      """
      CombineEx vs \(libraries.joined(separator: " and ")), release build, all in this process.
      \(Date()), \(processorCount()) processors, load average \(format(startLoad, 2)) at start\
      \(options.scale == 1 ? "" : ", sizes scaled by \(format(options.scale, 3))")
      time: median of \(options.runs) runs per library (alternating, after a warm-up run and a \
      counting run), per unit; measured as \(clock). (±: median absolute deviation)
      bytes: heap bytes in use per unit, from glibc's mallinfo2().uordblks (chunk headers included).
      allocs: heap allocations per unit in the counting run, counted by this program's own \
      malloc, calloc, realloc, memalign, posix_memalign and aligned_alloc, which forward to \
      glibc\(countingWorks ? "" : " (NOT ACTIVE on this system: shown as ?)").
      ratio: the other library / CombineEx (above 1: CombineEx is faster or smaller).
      """)
  }

  /// Prints a table's caption and its column titles.
  func printTableHeader(_ comparison: Comparison) {
    print("")
    if let caption = comparison.caption { print(caption) }
    let short = comparison.library.filter(\.isUppercase)
    print(
      Columns.row(
        keyWidth, "key", "workload", "n", "per", "CombineEx", comparison.library, "ratio",
        "target", "allocs CEx | \(short.isEmpty ? comparison.library : short)"))
  }

  /// Runs one workload in each library's build that has it, and prints its row; `library` is
  /// the other library's name.
  mutating func run(_ ours: Workload?, _ theirs: Workload?, against library: String) {
    guard let workload = ours ?? theirs else { return }
    if let ours, let theirs, theirs.metric != ours.metric {
      fatalError("workload \(workload.key) measures different metrics in the two builds")
    }
    // Warm up both (lazy metadata, caches), then count, then time, alternating.
    let builds = [ours, theirs]
    var checksums: [Int?] = []
    for build in builds {
      checksums.append(build.flatMap { execute($0, .warmUp).checksum })
    }
    if let ourSum = checksums[0], let theirSum = checksums[1], ourSum != theirSum {
      notes.append(
        "\(workload.key): THE LIBRARIES COMPUTED DIFFERENT RESULTS (\(ourSum) and \(theirSum))")
    }
    let counts = builds.map { build in build.map { measure($0, .countAllocations) } }
    var samples: [[Double]] = [[], []]
    for index in 0..<options.runs {
      for side in index % 2 == 0 ? [0, 1] : [1, 0] {
        if let build = builds[side] {
          samples[side].append(measure(build, .time).perUnit)
        }
      }
    }
    let results = (0..<2).map { side in counts[side].map { result(samples[side], $0) } }
    let (our, their) = (results[0], results[1])
    if let our { medians[workload.key] = our.median }
    var ratio: Double?
    if let our, let their {
      ratio = their.median / our.median
      // A floor that uses neither library (the raw loop) says nothing about the libraries.
      if !workload.title.contains("no library") {
        ratios.append((library, workload.key, their.median / our.median))
      }
    }

    var verdicts: [(passed: Bool, description: String)] = []
    if let our {
      verdicts = workload.targets.compactMap { check($0, ours: our, ratio: ratio) }
    }
    // A shown multiple (`multipleOf`) is no target: neither met nor missed.
    for (passed, description) in verdicts where !description.hasPrefix("=") {
      if passed {
        met.append("\(workload.key) \(description)")
      } else {
        missed.append("\(workload.key) \(description)")
      }
    }
    let targetColumn =
      verdicts.isEmpty
      ? "-" : verdicts.map { ($0.passed ? "" : "MISS ") + $0.description }.joined(separator: ", ")
    print(
      Columns.row(
        keyWidth, workload.key, workload.title, abbreviated((our ?? their)?.units ?? 0),
        workload.unit,
        our.map { display($0, workload.metric) } ?? "n/a",
        their.map { display($0, workload.metric) } ?? "n/a",
        ratio.map { "\(format($0, 1))x" } ?? "-",
        targetColumn,
        "\(our.map(allocations) ?? "-") | \(their.map(allocations) ?? "-")"))
    if options.printsUnits { print("units \(workload.key) \((our ?? their)?.units ?? 0)") }
    if let note = ours?.note { notes.append("\(workload.key) CombineEx: \(note)") }
    if let note = theirs?.note { notes.append("\(workload.key) \(library): \(note)") }
    if ours == nil || theirs == nil, options.runsBothSides {
      notes.append(
        "\(workload.key): \(ours == nil ? library : "CombineEx") only (the other library "
          + "has no equivalent)")
    }
  }

  func printFooter() {
    if !notes.isEmpty {
      print("\nnotes:")
      for note in notes { print("  \(note)") }
    }
    print("\ntargets met: \(met.isEmpty ? "none" : met.joined(separator: "; "))")
    print("targets missed: \(missed.isEmpty ? "none" : missed.joined(separator: "; "))")
    print("load average at end: \(format(loadAverage(), 2))")
    var libraries: [String] = []
    for entry in ratios where !libraries.contains(entry.library) { libraries.append(entry.library) }
    let worst = libraries.compactMap { library in
      ratios.filter { $0.library == library }.min { $0.ratio < $1.ratio }
    }
    let worstText =
      worst.isEmpty
      ? "no workload ran against another library"
      : worst.map { "worst ratio vs \($0.library) \(format($0.ratio, 1))x (\($0.key))" }
        .joined(separator: "; ")
    print("summary: \(worstText); \(met.count) targets met, \(missed.count) missed")
  }

  // MARK: Measuring

  /// Runs `workload` once and returns its measurement.
  func measure(_ workload: Workload, _ purpose: Bench.Purpose) -> Sample {
    execute(workload, purpose).sample
  }

  /// Runs `workload` once and returns its measurement and what it computed.
  func execute(_ workload: Workload, _ purpose: Bench.Purpose) -> (sample: Sample, checksum: Int?) {
    let threadTime = workload.metric == .cpuTime && !options.wallClock
    let clock: () -> UInt64 = { threadTime ? threadCPUNanoseconds() : monotonicNanoseconds() }
    let bench = Bench(scale: options.scale, purpose: purpose, clock: clock)
    workload.body(bench)
    guard let sample = bench.sample else {
      fatalError("workload \(workload.key) did not call measure")
    }
    return (sample, bench.checksum)
  }

  func result(_ samples: [Double], _ counted: Sample) -> Result {
    let median = Self.median(samples)
    let deviation = Self.median(samples.map { abs($0 - median) })
    let allocations = counted.allocations ?? 0
    return Result(
      median: median, spread: median == 0 ? 0 : deviation / median,
      allocationsPerUnit: Double(allocations) / Double(counted.units),
      allocationsPerRun: allocations, units: counted.units)
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// Whether CombineEx meets `target`, and how to show it; `nil` if it cannot be checked in
  /// this run (OpenCombine or the reference workload did not run).
  func check(_ target: Workload.Target, ours: Result, ratio: Double?) -> (
    passed: Bool, description: String
  )? {
    switch target {
    case .fasterThanOpenCombine(let factor):
      guard let ratio else { return nil }
      return (ratio >= factor, ">=\(format(factor, 0))x OC")
    case .withinFactorOf(let other, let factor):
      guard let reference = medians[other] else { return nil }
      let actual = ours.median / reference
      let digits = factor.rounded() == factor ? 0 : 1
      return (actual <= factor, "<=\(format(factor, digits))x \(other) (\(format(actual, 1))x)")
    case .atMostBytes(let bytes):
      return (ours.median <= bytes, "<=\(format(bytes, 0)) B")
    case .noAllocations:
      return (countingWorks && ours.allocationsPerUnit < 0.01, "0 allocs")
    case .multipleOf(let other):
      guard let reference = medians[other] else { return nil }
      return (true, "=\(format(ours.median / reference, 0))x \(other)")
    }
  }

  // MARK: Formatting

  func display(_ result: Result, _ metric: Workload.Metric) -> String {
    let spread = "±\(format(result.spread * 100, 0))%"
    switch metric {
    case .cpuTime, .wallTime:
      return "\(format(result.median, result.median < 100 ? 2 : 0)) ns \(spread)"
    case .bytes:
      return "\(format(result.median, 0)) B \(spread)"
    }
  }

  func allocations(_ result: Result) -> String {
    guard countingWorks else { return "?" }
    if result.allocationsPerRun == 0 { return "0" }
    let perUnit = format(result.allocationsPerUnit, 2)
    return result.allocationsPerUnit < 0.01
      ? "\(perUnit) (\(result.allocationsPerRun)/run)" : perUnit
  }
}

/// A class instance whose allocation proves that the counting allocator is in use.
private final class AllocationProbe {
  var value = 0
}

/// `1M`, `200k`, `10k`, `999`: a unit count, short.
func abbreviated(_ count: Int) -> String {
  if count >= 1_000_000, count % 100_000 == 0 {
    return "\(format(Double(count) / 1_000_000, count % 1_000_000 == 0 ? 0 : 1))M"
  }
  if count >= 1000, count % 1000 == 0 { return "\(count / 1000)k" }
  return "\(count)"
}

/// Formats `value` with `digits` decimals.
func format(_ value: Double, _ digits: Int) -> String {
  String(format: "%.\(digits)f", value)
}

/// The table's column layout.
enum Columns {
  static func row(
    _ keyWidth: Int, _ key: String, _ title: String, _ units: String, _ unit: String,
    _ ours: String,
    _ theirs: String, _ ratio: String, _ target: String, _ allocations: String
  ) -> String {
    pad(key, keyWidth) + pad(title, 45) + padLeft(units, 5) + " " + pad(unit, 13)
      + padLeft(ours, 15)
      + padLeft(theirs, 16)
      + padLeft(ratio, 8) + "  " + pad(target, 30) + allocations
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }

  static func padLeft(_ text: String, _ width: Int) -> String {
    text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
  }
}
