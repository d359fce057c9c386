import BenchmarkKit
import Dispatch

#if !BENCH_OPENCOMBINE
  import CombineEx
#endif

// CombineEx's side of the third table (issue 30, section 3): the streams that
// Sources/AsyncAlgorithmsWorkloads runs with swift-async-algorithms, with the same keys, sizes
// and checksums. Wall-clock time on both sides, because the AsyncSequence side runs on tasks;
// reported, not gated (the gate skips `x`).

/// The CombineEx side of the comparison with swift-async-algorithms (none in OpenCombine's
/// build).
public func asyncComparisonWorkloads() -> [Workload] {
  #if BENCH_OPENCOMBINE
    return []
  #else
    return [
      Workload(
        "x1", "PassthroughSubject, one sink; send", unit: "element", metric: .wallTime,
        body: subjectOneSubscriber),
      Workload(
        "x2", "merge of 3 subjects, sink; send round-robin", unit: "element",
        metric: .wallTime, body: mergeOfThree),
      Workload(
        "x3", "merge of 8 subjects, sink; send round-robin", unit: "element",
        metric: .wallTime, body: mergeOfEight),
      Workload(
        "x4", "combineLatest of 2 subjects, sink", unit: "element", metric: .wallTime,
        body: combineLatestOfTwo),
      Workload(
        "x5", "debounce(5 ms, a queue): a burst, to its value", unit: "element",
        metric: .wallTime, body: debounceBurst),
    ]
  #endif
}

#if !BENCH_OPENCOMBINE
  /// x1: values sent to a subject with one sink (`c2`, timed by the wall clock).
  func subjectOneSubscriber(_ bench: Bench) {
    let count = bench.size(100_000)
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let cancellable = subject.sink { total.add($0) }
    bench.measure(units: count) {
      for index in 0..<count { subject.send(index) }
    }
    cancellable.cancel()
    bench.consume(total.value)
  }

  /// x2: values sent round-robin to three subjects, merged (`Publishers.Merge3`).
  func mergeOfThree(_ bench: Bench) {
    let count = bench.size(50_000)
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    let total = Total()
    let cancellable = subjects[0].merge(with: subjects[1], subjects[2]).sink { total.add($0) }
    bench.measure(units: count) {
      for index in 0..<count { subjects[index % 3].send(index) }
    }
    cancellable.cancel()
    bench.consume(total.value)
  }

  /// x3: values sent round-robin to eight subjects, merged (`Publishers.Merge8`, as `g1`).
  func mergeOfEight(_ bench: Bench) {
    let count = bench.size(50_000)
    let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let total = Total()
    let cancellable = subjects[0].merge(
      with: subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6],
      subjects[7]
    ).sink { total.add($0) }
    bench.measure(units: count) {
      for index in 0..<count { subjects[index & 7].send(index) }
    }
    cancellable.cancel()
    bench.consume(total.value)
  }

  /// x4: values sent alternately to two subjects, combined by `combineLatest` (as `g2`).
  func combineLatestOfTwo(_ bench: Bench) {
    let count = bench.size(50_000)
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    let total = Total()
    let cancellable = first.combineLatest(second).sink { total.add($0.0 &+ $0.1) }
    bench.measure(units: count) {
      for index in 0..<count {
        if index & 1 == 0 { first.send(index) } else { second.send(index) }
      }
    }
    cancellable.cancel()
    bench.consume(total.value)
  }

  /// x5: a burst of values sent to a subject debounced by 5 ms on a serial queue, until the
  /// debounced value (the burst's last) arrives: each value replaces the pending one and its
  /// timer; the 5 ms wait is in the time, spread over the burst.
  func debounceBurst(_ bench: Bench) {
    let count = bench.size(20_000)
    let subject = PassthroughSubject<Int, Never>()
    let queue = DispatchQueue(label: "x5")
    let arrived = DispatchSemaphore(value: 0)
    let last = Total()
    let cancellable = subject.debounce(for: .milliseconds(5), scheduler: queue).sink { value in
      if value == count - 1 {
        last.add(value)
        arrived.signal()
      }
    }
    bench.measure(units: count) {
      for index in 0..<count { subject.send(index) }
      arrived.wait()
    }
    cancellable.cancel()
    bench.consume(last.value)
  }
#endif
