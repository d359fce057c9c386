import BenchmarkKit
import Dispatch

#if BENCH_OPENCOMBINE
  import OpenCombine
  import OpenCombineDispatch
#else
  import CombineEx
#endif

/// h1: values sent to a subject, delivered through `receive(on: ImmediateScheduler.shared)`.
func receiveOnImmediateScheduler(_ bench: Bench) {
  let count = bench.size(1_000_000)
  let subject = PassthroughSubject<Int, Never>()
  let total = Total()
  let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { total.add($0) }
  bench.measure(units: count) {
    for index in 0..<count { subject.send(index) }
  }
  cancellable.cancel()
  bench.consume(total.value)
}

/// h2: values sent to a subject on this thread and delivered on a serial dispatch queue; the
/// region ends when the sink has received the completion.
func receiveOnSerialQueue(_ bench: Bench) {
  let count = bench.size(200_000)
  let subject = PassthroughSubject<Int, Never>()
  let total = Total()
  let finished = DispatchSemaphore(value: 0)
  let cancellable = subject.receive(on: serialQueue())
    .sink(receiveCompletion: { _ in finished.signal() }, receiveValue: { total.add($0) })
  bench.measure(units: count) {
    for index in 0..<count { subject.send(index) }
    subject.send(completion: .finished)
    finished.wait()
  }
  cancellable.cancel()
  bench.consume(total.value)
}

/// a2: h2's floor, with no library: one `async` per value on a serial dispatch queue, the region
/// ending when the queue has run the last.
func rawSerialQueueHop(_ bench: Bench) {
  let count = bench.size(200_000)
  let queue = DispatchQueue(label: "benchmarks.serial")
  let total = HopTotal(Total())
  let finished = DispatchSemaphore(value: 0)
  bench.measure(units: count) {
    for index in 0..<count { queue.async { total.add(index) } }
    queue.async { finished.signal() }
    finished.wait()
  }
  bench.consume(total.value)
}

/// A ``Total`` that the closures of a serial queue add to.
struct HopTotal: @unchecked Sendable {
  // @unchecked Sendable: only the one serial queue adds, and the region's wait for its last
  // closure orders every add before the total is read.
  let total: Total

  init(_ total: Total) { self.total = total }

  func add(_ value: Int) { total.add(value) }

  var value: Int { total.value }
}

#if BENCH_OPENCOMBINE
  /// A serial dispatch queue as OpenCombine's scheduler (`OpenCombineDispatch`'s wrapper).
  private func serialQueue() -> DispatchQueue.OCombine {
    DispatchQueue(label: "benchmarks.serial").ocombine
  }
#else
  /// A serial dispatch queue, which is a scheduler.
  private func serialQueue() -> DispatchQueue {
    DispatchQueue(label: "benchmarks.serial")
  }
#endif
