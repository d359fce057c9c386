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
